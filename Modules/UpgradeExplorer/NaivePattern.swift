import Foundation

/// The naive pattern: a faithful Swift port of the Objective-C `XXAppUpdater` snippet that
/// AppUpgrade replaces (the pattern of the README's *Why*), the package's one model of it.
/// `upgrade-bench` times it as the baseline, and `NaiveUpgrader` (`explore --engine naive`)
/// orders and filters its steps with its `compareVersion(_:_:)`. Nothing else may use it, since it
/// has every fault listed in the README (junk reads as 0, no upper bound, `8.8 < 8.8.0`, unanchored
/// names, ...).
///
/// What is kept from the original, because it is where the time goes:
/// - `getVersionByStr`: `componentsSeparatedByString:@"."`, then `intValue` of each piece;
/// - `getVersionByMethodName`: the two patterns, each compiled with `NSRegularExpression` (case
///   insensitive) on every call, `firstMatch` over the whole name, each group cut out as a substring
///   and read with `intValue`;
/// - `compareVersion`: component by component over the shorter array, then the longer array wins;
/// - `updateToVersion`: filter the method names with a predicate that re-parses the stored version
///   and the name for every element, then sort with a comparator that re-parses both names.
///
/// The one liberty taken makes the baseline *faster*, never slower: the arrays hold `Int32`, not
/// `NSNumber` boxes (`numberWithInt:` allocates an object per component in the original).
package enum NaivePattern {
    /// `getVersionByStr`: `componentsSeparatedByString:@"."`, then `intValue` of each piece.
    package static func getVersionByStr(_ strVersion: String) -> [Int32] {
        let versionStrArr = strVersion.components(separatedBy: ".")
        var version: [Int32] = []
        version.reserveCapacity(versionStrArr.count)
        for str in versionStrArr {
            version.append(intValue(str))
        }
        return version
    }

    /// The snippet's two patterns, tried in this order.
    package static let arrRegex = [#"appUpgradeTo_(\d+)_(\d+)_(\d+)"#, #"appUpgradeTo_(\d+)_(\d+)"#]

    /// `getVersionByMethodName`: each pattern compiled on every call (as the snippet does), the first
    /// match anywhere in the name, its groups read with `intValue`; `nil` when neither pattern matches.
    package static func getVersionByMethodName(_ methodName: String) -> [Int32]? {
        for regexStr in arrRegex {
            guard let regex = try? NSRegularExpression(pattern: regexStr, options: .caseInsensitive) else {
                continue
            }
            let match = regex.firstMatch(
                in: methodName, options: [], range: NSRange(location: 0, length: methodName.utf16.count))
            if let match {
                let count = match.numberOfRanges
                var version: [Int32] = []
                version.reserveCapacity(count)
                for i in 1..<count {
                    let range = Range(match.range(at: i), in: methodName)!
                    let str = String(methodName[range])
                    version.append(intValue(str))
                }
                return version
            }
        }
        return nil
    }

    /// `compareVersion`: -1, 0 or 1; on a common prefix the longer array is the larger (`8.8 < 8.8.0`).
    package static func compareVersion(_ ver1: [Int32], _ ver2: [Int32]) -> Int {
        let count = min(ver1.count, ver2.count)
        for i in 0..<count {
            let left = ver1[i]
            let right = ver2[i]
            if left > right { return 1 }
            if left < right { return -1 }
        }
        if ver1.count > ver2.count {
            return 1
        } else if ver1.count < ver2.count {
            return -1
        } else {
            return 0
        }
    }

    /// The body of `updateToVersion` up to the loop that performs the selectors: the method names
    /// whose version is above the stored version string, sorted by version.
    ///
    /// - Parameters:
    ///   - methodArray: Every method name of the updater class (what `class_copyMethodList` lists).
    ///   - version: The stored version string (`[WJUserDefaults localAppVersion]`).
    package static func upgradeMethods(_ methodArray: [String], storedVersion version: String) -> [String] {
        // The predicate block re-reads the stored version for every element, as in the snippet.
        let filtered = methodArray.filter { evaluatedObject in
            let left = getVersionByStr(version)
            guard let right = getVersionByMethodName(evaluatedObject) else { return false }
            return compareVersion(left, right) < 0
        }
        // The comparator re-parses both names for every comparison, as in the snippet.
        return filtered.sorted { obj1, obj2 in
            let left = getVersionByMethodName(obj1) ?? []
            let right = getVersionByMethodName(obj2) ?? []
            return compareVersion(left, right) < 0
        }
    }

    /// `-[NSString intValue]`: optional leading whitespace, an optional sign, then the leading decimal
    /// digits; anything else reads as 0 (`"x1"` is 0, `"1x"` is 1). Saturates at `Int32.max` and
    /// `Int32.min`, as Foundation does on overflow.
    package static func intValue(_ string: String) -> Int32 {
        var iterator = string.utf8.makeIterator()
        var byte = iterator.next()
        // Leading whitespace: space, tab, newline, vertical tab, form feed, carriage return.
        while let current = byte, current == 0x20 || (current >= 0x09 && current <= 0x0D) {
            byte = iterator.next()
        }
        var negative = false
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
            negative = byte == UInt8(ascii: "-")
            byte = iterator.next()
        }
        var value: Int64 = 0
        while let current = byte, current >= UInt8(ascii: "0"), current <= UInt8(ascii: "9") {
            value = value * 10 + Int64(current - UInt8(ascii: "0"))
            if value > Int64(Int32.max) + 1 {
                return negative ? Int32.min : Int32.max
            }
            byte = iterator.next()
        }
        if negative { value = -value }
        return Int32(clamping: value)
    }
}

extension NaivePattern {
    /// The naive pattern's whole launch, `updateToVersion`: the method names of `upgradeMethods` (the
    /// filter and the sort), each performed in order (`performSelector:`, here a lookup by name in a
    /// table of the class's methods), then the current version stored once
    /// (`[WJUserDefaults setLocalAppVersion:]`), which UserDefaults writes as one atomic replacement
    /// of its file, not flushed.
    ///
    /// - Parameters:
    ///   - methodArray: Every method name of the updater class.
    ///   - version: The stored version string.
    ///   - methods: The class's methods by name.
    ///   - store: Stores the current version (one atomic write of the defaults file).
    /// - Returns: How many methods ran.
    package static func launch(
        _ methodArray: [String], storedVersion version: String, methods: [String: @Sendable () -> Void],
        store: () throws -> Void
    ) rethrows -> Int {
        let upgrades = upgradeMethods(methodArray, storedVersion: version)
        for name in upgrades {
            methods[name]?()
        }
        try store()
        return upgrades.count
    }

    /// The defaults file of an app whose stored version is `version`, as UserDefaults writes it (an
    /// XML property list with the one key).
    package static func defaultsFile(version: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>localAppVersion</key>
            \t<string>\(version)</string>
            </dict>
            </plist>

            """.utf8)
    }
}
