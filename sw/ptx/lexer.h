// Tokenizer for PTX text. Directives and opcode modifiers keep their leading dot (".reg", ".u32");
// identifiers include the PTX forms that start with '%' or '$'.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ptx/diagnostics.h"

namespace gpusim::ptx {

enum class Tok {
    Ident,      // name, opcode, %reg, $label, %tid
    Dot,        // .directive or .modifier (text includes the dot)
    Integer,    // decimal, hex, octal or binary literal, optional U suffix
    Float,      // 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX or decimal with '.'/'e'
    String,     // "..." (used by .file)
    Punct,      // one of , ; : { } [ ] ( ) < > + - ! @ = |
    End,
};

struct Token {
    Tok kind = Tok::End;
    std::string text;
    SourceLoc loc;
};

// Splits `source` into tokens; comments and whitespace are dropped.
std::vector<Token> tokenize(const std::string& file, std::string_view source);

} // namespace gpusim::ptx
