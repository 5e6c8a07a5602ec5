#pragma once
// A real as the shortest text that reads back as the same double; integers
// (|v| < 1e15) without a decimal point or exponent: "10000000", "-3", "0.1",
// "1.5e-07", "1e+20". Used wherever a parameter value is written as text (a
// substituted ${NAME}, a message naming a value), so that text and number agree.
#include <string>

namespace senda::core {

std::string format_number(double v);

// A real in printf's %.<digits>g, for messages that show a value to a few digits.
std::string format_g(double v, int digits);

}  // namespace senda::core
