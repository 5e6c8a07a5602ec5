#include "senda/input/expression.hpp"

#include <charconv>
#include <cmath>
#include <numbers>

namespace senda::input {

namespace {

bool is_name_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Parser {
 public:
  Parser(std::string_view text, const NameLookup& lookup) : s_(text), lookup_(lookup) {}

  double parse() {
    const double v = expr();
    skip();
    if (i_ < s_.size()) fail("unexpected '" + std::string(1, s_[i_]) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError(what + " at position " + std::to_string(i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  // Depth of nested unary operators and parentheses.
  struct Guard {
    explicit Guard(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxExpressionDepth)
        p_.fail("expression nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels");
    }
    ~Guard() { --p_.depth_; }
    Parser& p_;
  };

  double expr() {
    double v = term();
    while (true) {
      if (eat('+')) v += term();
      else if (eat('-')) v -= term();
      else return v;
    }
  }
  double term() {
    double v = unary();
    while (true) {
      if (eat('*')) v *= unary();
      else if (eat('/')) {
        const std::size_t at = i_;
        const double d = unary();
        if (d == 0.0) {
          i_ = at;
          fail("division by zero");
        }
        v /= d;
      } else return v;
    }
  }
  double unary() {
    Guard g(*this);
    if (eat('-')) return -unary();
    if (eat('+')) return unary();
    return power();
  }
  double power() {
    const double base = primary();
    if (eat('^')) {
      Guard g(*this);
      return std::pow(base, unary());
    }
    return base;
  }
  double primary() {
    skip();
    if (i_ >= s_.size()) fail("expected a number, a name or '(' but the expression ends");
    const char c = s_[i_];
    if (c == '(') {
      Guard g(*this);
      ++i_;
      const double v = expr();
      if (!eat(')')) fail("expected ')'");
      return v;
    }
    if (is_digit(c) || c == '.') return number();
    if (is_name_start(c)) {
      const std::size_t b = i_;
      while (i_ < s_.size() && is_name_char(s_[i_])) ++i_;
      const std::string_view name = s_.substr(b, i_ - b);
      if (name == "pi") return std::numbers::pi;
      if (name == "sqrt" || name == "sin" || name == "cos" || name == "tan") {
        if (!eat('(')) fail("expected '(' after " + std::string(name));
        Guard g(*this);
        const double a = expr();
        if (!eat(')')) fail("expected ')'");
        if (name == "sqrt") {
          if (a < 0.0) fail("sqrt of a negative number");
          return std::sqrt(a);
        }
        return name == "sin" ? std::sin(a) : name == "cos" ? std::cos(a) : std::tan(a);
      }
      const std::optional<double> v = lookup_ ? lookup_(name) : std::nullopt;
      if (!v) throw ExpressionError("unknown parameter '" + std::string(name) + "'", std::string(name));
      return *v;
    }
    fail("expected a number, a name or '(', found '" + std::string(1, c) + "'");
  }
  double number() {
    // digits [. digits] [e [+-] digits]
    const std::size_t b = i_;
    while (i_ < s_.size() && (is_digit(s_[i_]) || s_[i_] == '.')) ++i_;
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      std::size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && is_digit(s_[j])) {
        i_ = j;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      }
    }
    const std::string_view t = s_.substr(b, i_ - b);
    double v = 0.0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) {
      i_ = b;
      fail("malformed number '" + std::string(t) + "'");
    }
    return v;
  }

  std::string_view s_;
  const NameLookup& lookup_;
  std::size_t i_ = 0;
  int depth_ = 0;
};

}  // namespace

bool is_reserved_name(std::string_view name) {
  return name == "pi" || name == "sqrt" || name == "sin" || name == "cos" || name == "tan";
}

double evaluate_expression(std::string_view text, const NameLookup& lookup) {
  Parser p(text, lookup);
  const double v = p.parse();
  if (!std::isfinite(v)) throw ExpressionError("the result is not a finite number");
  return v;
}

}  // namespace senda::input
