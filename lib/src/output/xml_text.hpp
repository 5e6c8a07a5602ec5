#pragma once
// Text of XML attributes and elements (the SVG drawings and the VTK files): the
// five characters XML reserves, escaped. Private to lib/src/output.
#include <string>

namespace senda::output::detail {

inline std::string xml_escape(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  for (char c : in) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace senda::output::detail
