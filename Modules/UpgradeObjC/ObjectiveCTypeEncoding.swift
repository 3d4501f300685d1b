/// Reads the return type from an Objective-C method's type encoding, such as `C16@0:8`.
enum ObjectiveCTypeEncoding {
    /// What a step method returns.
    enum ReturnKind: Sendable, Hashable {
        /// `BOOL`, whatever its type on the platform: `C` (unsigned char) on GCC's runtime and
        /// libobjc2, `c` (signed char) on Intel Macs (and libobjc2's strict Apple mode), `B` (C99
        /// `bool`) on arm64 Apple platforms.
        /// Each is one byte, returned in the same register, so a call reads it as one byte and
        /// takes 0 for `NO`.
        case bool
        /// `void`.
        case void
    }

    /// The qualifiers that may stand before a type: const, in, inout, out, bycopy, byref, oneway.
    private static let qualifiers: Set<Character> = ["r", "n", "N", "o", "O", "R", "V"]

    /// The return type's part of a method's type encoding: its qualifiers and its type, up to the
    /// frame size that follows it (`C` of `C16@0:8`, `Vv` of `Vv16@0:8`, `^{S=ii}` of `^{S=ii}16@0:8`).
    ///
    /// - Parameter encoding: The method's type encoding.
    /// - Returns: The return type's encoding; empty for an empty encoding.
    static func returnType(of encoding: String) -> String {
        let characters = Array(encoding)
        var index = 0
        while index < characters.count, qualifiers.contains(characters[index]) { index += 1 }
        index = end(ofTypeAt: index, in: characters)
        return String(characters[..<index])
    }

    /// The index just past the type that starts at `start`.
    private static func end(ofTypeAt start: Int, in characters: [Character]) -> Int {
        guard start < characters.count else { return start }
        switch characters[start] {
        case "^":
            return end(ofTypeAt: start + 1, in: characters)
        case "{", "(", "[":
            var depth = 0
            var index = start
            while index < characters.count {
                if "{([".contains(characters[index]) { depth += 1 }
                if "})]".contains(characters[index]) { depth -= 1 }
                index += 1
                if depth == 0 { break }
            }
            return index
        case "@" where start + 1 < characters.count && characters[start + 1] == "?":
            return start + 2  // a block
        case "@" where start + 1 < characters.count && characters[start + 1] == "\"":
            // An object of a named class: @"NSString".
            var index = start + 2
            while index < characters.count, characters[index] != "\"" { index += 1 }
            return min(index + 1, characters.count)
        default:
            return start + 1
        }
    }

    /// The kind of a step's return type, or `nil` when it is neither `BOOL` nor `void`.
    ///
    /// - Parameter returnType: The return type's encoding, as ``returnType(of:)`` gives it.
    /// - Returns: `.bool`, `.void`, or `nil`.
    static func kind(of returnType: String) -> ReturnKind? {
        switch returnType.drop(while: { qualifiers.contains($0) }) {
        case "C", "c", "B": return .bool
        case "v": return .void
        default: return nil
        }
    }

    /// The type in words, for an error message: `an object (id)` for `@`.
    ///
    /// - Parameter returnType: The return type's encoding.
    /// - Returns: Words naming the type.
    static func describe(_ returnType: String) -> String {
        let names: [Character: String] = [
            "@": "an object (id)", "#": "a class", ":": "a selector", "*": "a C string", "i": "int",
            "I": "unsigned int", "s": "short", "S": "unsigned short", "l": "long", "L": "unsigned long",
            "q": "long long", "Q": "unsigned long long", "f": "float", "d": "double", "D": "long double",
            "^": "a pointer", "{": "a struct", "(": "a union", "[": "an array", "?": "an unknown type",
        ]
        let type = returnType.drop(while: { qualifiers.contains($0) })
        guard let first = type.first, let name = names[first] else { return "a type that is not BOOL or void" }
        return name
    }
}
