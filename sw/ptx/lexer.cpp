#include "ptx/lexer.h"

#include <cctype>
#include <cmath>

#include "ptx/vocabulary.h"

namespace gpusim::ptx {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

class Lexer {
public:
    Lexer(const std::string& file, std::string_view src) : m_file(file), m_src(src) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        while (skip_space_and_comments()) out.push_back(next());
        out.push_back(Token{Tok::End, "", here()});
        return out;
    }

private:
    const std::string& m_file;
    std::string_view m_src;
    size_t m_pos = 0;
    int m_line = 1;
    int m_col = 1;

    SourceLoc here() const { return {m_line, m_col}; }
    char peek(size_t ahead = 0) const { return m_pos + ahead < m_src.size() ? m_src[m_pos + ahead] : '\0'; }

    void advance() {
        if (m_src[m_pos] == '\n') { ++m_line; m_col = 1; } else { ++m_col; }
        ++m_pos;
    }

    // Returns false at the end of input.
    bool skip_space_and_comments() {
        while (m_pos < m_src.size()) {
            char c = peek();
            if (std::isspace(static_cast<unsigned char>(c))) { advance(); continue; }
            if (c == '/' && peek(1) == '/') { while (m_pos < m_src.size() && peek() != '\n') advance(); continue; }
            if (c == '/' && peek(1) == '*') {
                SourceLoc start = here();
                advance(); advance();
                while (m_pos < m_src.size() && !(peek() == '*' && peek(1) == '/')) advance();
                if (m_pos >= m_src.size()) throw PtxError(m_file, start, "unterminated comment");
                advance(); advance();
                continue;
            }
            return true;
        }
        return false;
    }

    Token take_while(Tok kind, SourceLoc loc, size_t start, bool (*pred)(char)) {
        while (m_pos < m_src.size() && pred(peek())) advance();
        return Token{kind, std::string(m_src.substr(start, m_pos - start)), loc};
    }

    Token number(SourceLoc loc) {
        size_t start = m_pos;
        // A qualifier after "::" may start with a digit: .L2::128B, .L2::64B (prefetch sizes).
        if (start >= 2 && m_src[start - 1] == ':' && m_src[start - 2] == ':') return take_while(Tok::Ident, loc, start, ident_char);
        char c1 = peek(1);
        if (peek() == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
            advance(); advance();
            size_t digits = m_pos;
            while (std::isxdigit(static_cast<unsigned char>(peek()))) advance();
            size_t want = (c1 == 'f' || c1 == 'F') ? 8 : 16;
            if (m_pos - digits != want)
                throw PtxError(m_file, loc, fmt::format("float literal '{}' needs exactly {} hex digits",
                                                        std::string(m_src.substr(start, m_pos - start)), want));
            return Token{Tok::Float, std::string(m_src.substr(start, m_pos - start)), loc};
        }
        if (peek() == '0' && (c1 == 'x' || c1 == 'X')) {
            advance(); advance();
            while (std::isxdigit(static_cast<unsigned char>(peek()))) advance();
        } else if (peek() == '0' && (c1 == 'b' || c1 == 'B')) {
            advance(); advance();
            while (peek() == '0' || peek() == '1') advance();
        } else {
            bool is_float = false;
            while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
            if (peek() == '.' && std::isdigit(static_cast<unsigned char>(peek(1)))) {
                is_float = true;
                advance();
                while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
            }
            if ((peek() == 'e' || peek() == 'E') &&
                (std::isdigit(static_cast<unsigned char>(peek(1))) ||
                 ((peek(1) == '-' || peek(1) == '+') && std::isdigit(static_cast<unsigned char>(peek(2)))))) {
                is_float = true;
                advance(); advance();
                while (std::isdigit(static_cast<unsigned char>(peek()))) advance();
            }
            if (is_float) {
                std::string text(m_src.substr(start, m_pos - start));
                if (std::isinf(decimal_literal(text)))
                    throw PtxError(m_file, loc, fmt::format("floating-point literal '{}' is beyond the range of .f64", text));
                return Token{Tok::Float, std::move(text), loc};
            }
        }
        if (peek() == 'U' || peek() == 'u') advance();
        if (ident_char(peek()))
            throw PtxError(m_file, loc, fmt::format("malformed number '{}{}'",
                                                    std::string(m_src.substr(start, m_pos - start)), peek()));
        return Token{Tok::Integer, std::string(m_src.substr(start, m_pos - start)), loc};
    }

    Token next() {
        SourceLoc loc = here();
        size_t start = m_pos;
        char c = peek();
        if (ident_start(c)) { advance(); return take_while(Tok::Ident, loc, start, ident_char); }
        if (c == '.' && ident_start(peek(1))) { advance(); advance(); return take_while(Tok::Dot, loc, start, ident_char); }
        // Geometry modifiers of texture instructions begin with a digit: .1d, .2d, .3d, .2dms.
        if (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))) && peek(2) == 'd') {
            advance();
            return take_while(Tok::Dot, loc, start, ident_char);
        }
        if (std::isdigit(static_cast<unsigned char>(c))) return number(loc);
        if (c == '"') {
            advance();
            while (m_pos < m_src.size() && peek() != '"' && peek() != '\n') advance();
            if (peek() != '"') throw PtxError(m_file, loc, "unterminated string");
            advance();
            return Token{Tok::String, std::string(m_src.substr(start + 1, m_pos - start - 2)), loc};
        }
        static const std::string_view punct = ",;:{}[]()<>+-!@=|";
        if (punct.find(c) != std::string_view::npos) { advance(); return Token{Tok::Punct, std::string(1, c), loc}; }
        throw PtxError(m_file, loc, fmt::format("unexpected character '{}'", c));
    }
};

} // namespace

std::vector<Token> tokenize(const std::string& file, std::string_view source) {
    return Lexer(file, source).run();
}

} // namespace gpusim::ptx
