#pragma once
// Reader of Senda's .cfg files (Boost.Program_options syntax) and the one table
// of every key Senda understands (docs/config.md).
//
//   # comment                 whole line, or after a value
//   [section]                 keys below are "section.key"
//   key = value               repeated keys allowed only for repeatable keys
//
// Boost's own config parser is not used because it drops line numbers, and every
// message must name file, line and key. Values of scalar keys are validated here
// against the table (type, range, choices); record keys ("node = ID X Y [Z]") are
// split into fields by the model builder, which knows their meaning.
//
// Command-line overrides "section.key=value" replace the file's value of a scalar
// key and append to a repeatable key; their messages name "<command line>".
//
// Parameters (docs/config.md "Parameters"): the keys of [parameters] are names
// the user chooses (H = 38.6); any other value may hold ${NAME} or ${expression}
// (senda/input/expression.hpp), replaced by the number before the value is validated,
// so that the usual messages name the line and key. Entry::raw keeps the text as
// written, so that overriding a parameter ("parameters.H=40") substitutes again.
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace senda::input {

// Bad user input: a message naming file, line and key, and what would be valid.
//   what() = "FILE:LINE: key 'section.key': message (valid: …)"
// line 0 drops ":LINE", an empty key drops "key '…': ", an empty valid drops "(valid: …)".
class ConfigError : public std::runtime_error {
 public:
  ConfigError(std::string file, int line, std::string key, std::string message, std::string valid = {});
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }
  const std::string& valid() const { return valid_; }

 private:
  std::string file_;
  int line_;
  std::string key_, message_, valid_;
};

// Name used as the file of command-line overrides.
inline constexpr const char* kCommandLine = "<command line>";

// "FILE:LINE", or "FILE" when line is 0 (an override): where messages point.
std::string location(const std::string& file, int line);

enum class ValueType {
  Integer,  // decimal integer within valid ("[a, b]" or "{a, b, …}")
  Real,     // finite decimal number within valid ("(a, b]", "[a, inf)", …)
  Bool,     // true|false|yes|no|on|off|1|0
  Choice,   // one of valid ("a|b|c")
  Text,     // free text (no '#')
  Record,   // several fields, syntax in valid ("ID X Y [Z]"), checked by the builder
};
const char* to_string(ValueType t);

// One row of the option table. Adding a key is adding one row (config.cpp).
struct OptionSpec {
  const char* key;            // "section.key"
  ValueType type;
  const char* default_value;  // nullptr: no default (optional, or required by context)
  const char* valid;          // range, choices or record syntax; nullptr when anything goes
  bool repeatable;
  const char* doc;            // one line: meaning and units
};

// The table, in documentation order.
const std::vector<OptionSpec>& option_table();
// The row of a key; every "parameters.<name>" has the row kParameterRow.
const OptionSpec* find_option(std::string_view key);
// Section names ("model", "continuation", …) in table order.
std::vector<std::string> sections();
// The known key closest to `key` (edit distance, also across sections), or "".
std::string nearest_key(std::string_view key);
// The table as text for --help: key, default, meaning.
std::string format_option_table();

// One `key = value` line.
struct Entry {
  std::string key;    // "section.key"
  std::string value;  // trimmed, comment removed
  std::string file;   // file name, or kCommandLine
  int line = 0;       // 1-based; 0 for overrides
  std::string raw;    // the value as written when it holds ${...} (value is then substituted), else ""
};

// The section of user-named parameters, and the one row of the table that
// stands for all of its keys ("parameters.NAME").
inline constexpr const char* kParameterSection = "parameters";
inline constexpr const char* kParameterRow = "parameters.NAME";

class Config {
 public:
  // Reads and validates a file. Throws ConfigError (missing file, a directory,
  // not UTF-8, empty, syntax, unknown key, bad scalar value, key given twice).
  static Config read_file(const std::filesystem::path& file);
  // Same, from text; `file` names it in messages.
  static Config parse(std::string_view text, const std::string& file);

  // Applies "section.key=value" (scalar: replaces, repeatable: appends).
  void apply_override(std::string_view assignment);
  // A command line's overrides, in order: as apply_override, and a non-repeatable key
  // (other than a parameter) given twice among them is refused, naming both values.
  void apply_overrides(const std::vector<std::string>& assignments);

  const std::string& file() const { return file_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // The entry of a scalar key, or nullptr when the key is absent (default applies).
  const Entry* find(std::string_view key) const;
  // Every entry of a key, in order (file first, then overrides).
  std::vector<const Entry*> all(std::string_view key) const;
  bool has(std::string_view key) const { return find(key) != nullptr; }

  // Typed values of scalar keys: the entry's value or the table default,
  // validated. std::nullopt when absent and the table has no default.
  std::optional<long> integer(std::string_view key) const;
  std::optional<double> real(std::string_view key) const;
  std::optional<bool> boolean(std::string_view key) const;
  std::optional<std::string> text(std::string_view key) const;  // Text and Choice

  // The value of parameter NAME ([parameters] NAME = value), or std::nullopt.
  std::optional<double> parameter(std::string_view name) const;

  // An error located at an entry, or at the file when entry is null.
  [[noreturn]] void fail(const Entry* entry, std::string_view key, const std::string& message,
                         const std::string& valid = {}) const;

 private:
  void add(Entry e, bool is_override, bool defer_substitution);
  void substitute(Entry& e) const;  // raw -> value; throws ConfigError
  void substitute(Entry& e, const std::map<std::string, double, std::less<>>& parameters) const;
  std::map<std::string, double, std::less<>> parameter_map() const;
  void substitute_all();            // every entry with ${...}, substituted and validated
  void check_design() const;        // [design] names only parameters
  std::string file_;
  std::vector<Entry> entries_;
  // Key → index in entries_ of its last entry: find() and the "given twice" test in
  // O(log n), not a scan per entry (issue 20: 200 000 [parameters] took 60 s).
  std::map<std::string, std::size_t, std::less<>> last_;
};

// Field parsing shared by the reader and the builder. `what` names the field in
// messages; errors are located at `e`.
long parse_integer(const Entry& e, std::string_view token, std::string_view what, const std::string& valid = {});
double parse_real(const Entry& e, std::string_view token, std::string_view what, const std::string& valid = {});
bool parse_bool(const Entry& e, std::string_view token, std::string_view what);
// Whitespace-separated fields of a value.
std::vector<std::string> split_fields(std::string_view value);

}  // namespace senda::input
