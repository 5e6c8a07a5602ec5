#pragma once
// The arithmetic of `${…}` in .cfg values (docs/config.md "Parameters").
//
//   expr    := term   (('+' | '-') term)*
//   term    := unary  (('*' | '/') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary ('^' unary)?          right-associative: 2^3^2 = 2^9, -2^2 = -4
//   primary := NUMBER | NAME | FUNC '(' expr ')' | '(' expr ')'
//   FUNC    := sqrt | sin | cos | tan        constant: pi
//
// Written here because none of the allowed Debian dependencies (Eigen, fmt,
// nlohmann-json, Boost.Program_options, SuiteSparse) evaluates expressions, and
// a dozen lines of recursive descent are easier to audit than a new dependency.
// Nesting is limited (kMaxExpressionDepth) so that hostile input (the fuzzer)
// cannot exhaust the stack; every failure is an ExpressionError, never a crash.
#include <functional>
#include <optional>
#include <stdexcept>
#include "senda/core/number.hpp"
#include <string>
#include <string_view>

namespace senda::input {

inline constexpr int kMaxExpressionDepth = 64;

class ExpressionError : public std::runtime_error {
 public:
  // name: the unknown name when that is the failure, else empty.
  ExpressionError(const std::string& message, std::string name = {})
      : std::runtime_error(message), name_(std::move(name)) {}
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

// The value of a name, or std::nullopt when it is unknown.
using NameLookup = std::function<std::optional<double>(std::string_view name)>;

// Evaluates `text`. Throws ExpressionError: syntax ("expected ... at position
// N"), unknown name, division by zero, too deep, or a result that is not finite.
double evaluate_expression(std::string_view text, const NameLookup& lookup);

// A number as substituted for ${...}: an integral value below 1e15 in magnitude
// as an integer ("100000000", so that it fits integer keys), any other as the
// shortest text that reads back as the same double ("0.1", "1.5e-07").
using core::format_number;

// True for the names the evaluator reserves (pi, sqrt, sin, cos, tan).
bool is_reserved_name(std::string_view name);

}  // namespace senda::input
