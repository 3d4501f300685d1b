#if os(Linux) || os(macOS)
    import Foundation

    /// `--name value` pairs of the command line.
    struct Options {
        let pairs: [String: String]

        init(_ arguments: ArraySlice<String>) {
            var pairs: [String: String] = [:]
            var index = arguments.startIndex
            while index < arguments.endIndex {
                let name = arguments[index]
                let next = arguments.index(after: index)
                guard name.hasPrefix("--"), next < arguments.endIndex else {
                    Options.fail("unexpected argument \"\(name)\"")
                }
                pairs[name] = arguments[next]
                index = arguments.index(after: next)
            }
            self.pairs = pairs
        }

        /// The value of a required option.
        func value(_ name: String) -> String {
            guard let value = pairs[name] else { Options.fail("missing \(name)") }
            return value
        }

        /// The value of an optional option, or `nil`.
        func optional(_ name: String) -> String? { pairs[name] }

        static func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("objc-runtime-tester: \(message)\n".utf8))
            exit(2)
        }
    }
#endif
