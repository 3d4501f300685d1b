#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

#if canImport(ObjectiveC)
    // Apple platforms: the system's runtime is always loaded (ObjectiveCRuntime.swift).
#else
    extension ObjectiveCRuntime {
        /// The runtime loaded in this process, found at run time: the package links no Objective-C
        /// runtime, so that building and testing it needs none.
        ///
        /// The process's global symbols are looked at first (an app linked against the runtime, or a
        /// library loaded with `RTLD_GLOBAL`). A library loaded with `RTLD_LOCAL`, the default of
        /// `dlopen`, keeps its runtime out of them: then each library the process has mapped
        /// (`/proc/self/maps`), those named `libobjc*` first, is opened again with `RTLD_NOLOAD`,
        /// which never loads anything new, and asked for the runtime's functions.
        ///
        /// - Parameter className: The class being looked for, for the error.
        /// - Returns: The runtime.
        /// - Throws: ``ObjectiveCStepsError`` with code ``ObjectiveCStepsError/Code-swift.enum/noRuntime``
        ///   when no loaded object has the runtime, or the one found lacks a function.
        static func loaded(lookingFor className: String) throws(ObjectiveCStepsError) -> ObjectiveCRuntime {
            if let process = dlopen(nil, RTLD_NOW), dlsym(process, "objc_getClass") != nil {
                return try runtime(in: process, source: "the process's global symbols", className: className)
            }
            let libraries = mappedLibraries()
            let preferred = libraries.filter { ($0.split(separator: "/").last ?? "").hasPrefix("libobjc") }
            for path in preferred + libraries.filter({ !preferred.contains($0) }) {
                guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { continue }
                if dlsym(handle, "objc_getClass") != nil {
                    return try runtime(in: handle, source: path, className: className)
                }
                dlclose(handle)
            }
            throw ObjectiveCStepsError(
                code: .noRuntime, className: className,
                detail: "no Objective-C runtime is loaded in this process (no objc_getClass in its global symbols"
                    + " nor in any of the \(libraries.count) libraries it has mapped); load the library that"
                    + " defines the class, and its runtime (libobjc), before looking for its steps")
        }

        /// Takes the runtime's functions from a handle whose object (or whose dependencies) has them.
        private static func runtime(
            in handle: UnsafeMutableRawPointer, source: String, className: String
        ) throws(ObjectiveCStepsError) -> ObjectiveCRuntime {
            var missing: [String] = []
            func symbol<Function>(_ name: String, as type: Function.Type) -> Function? {
                guard let address = dlsym(handle, name) else {
                    missing.append(name)
                    return nil
                }
                return unsafeBitCast(address, to: type)
            }
            let getClass = symbol("objc_getClass", as: GetClass.self)
            let getMetaClass = symbol("objc_getMetaClass", as: GetClass.self)
            let copyMethodList = symbol("class_copyMethodList", as: CopyMethodList.self)
            let methodGetName = symbol("method_getName", as: MethodGetName.self)
            let selGetName = symbol("sel_getName", as: SelGetName.self)
            let methodGetTypeEncoding = symbol("method_getTypeEncoding", as: MethodGetTypeEncoding.self)
            let getClassMethod = symbol("class_getClassMethod", as: GetClassMethod.self)
            let selRegisterName = symbol("sel_registerName", as: SelRegisterName.self)
            let lookUp = symbol("objc_msg_lookup", as: LookUp.self)
            guard let getClass, let getMetaClass, let copyMethodList, let methodGetName, let selGetName,
                let methodGetTypeEncoding, let getClassMethod, let selRegisterName, let lookUp
            else {
                throw ObjectiveCStepsError(
                    code: .noRuntime, className: className,
                    detail: "the Objective-C runtime found in \(source) lacks \(missing.joined(separator: ", "))"
                        + " (GCC's libobjc and libobjc2 export them)")
            }
            let push = dlsym(handle, "objc_autoreleasePoolPush")
            let pop = dlsym(handle, "objc_autoreleasePoolPop")
            return ObjectiveCRuntime(
                source: source, getClass: getClass, getMetaClass: getMetaClass, copyMethodList: copyMethodList,
                methodGetName: methodGetName, selGetName: selGetName, methodGetTypeEncoding: methodGetTypeEncoding,
                getClassMethod: getClassMethod, selRegisterName: selRegisterName, lookUp: lookUp,
                poolPush: push.map { unsafeBitCast($0, to: PoolPush.self) },
                poolPop: pop.map { unsafeBitCast($0, to: PoolPop.self) })
        }

        /// The paths of the files the process has mapped that look like shared libraries, each once,
        /// in the order of their first mapping.
        static func mappedLibraries() -> [String] {
            guard let text = readWhole("/proc/self/maps") else { return [] }
            var seen = Set<String>()
            return text.split(separator: "\n").compactMap { line -> String? in
                // address perms offset device inode path: the path is the sixth field, and may hold spaces.
                guard let slash = line.firstIndex(of: "/") else { return nil }
                let path = String(line[slash...])
                guard path.contains(".so"), seen.insert(path).inserted else { return nil }
                return path
            }
        }

        /// A file's whole text, read to its end (a `/proc` file reports its size as 0).
        private static func readWhole(_ path: String) -> String? {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.append(contentsOf: chunk[..<count])
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
#endif
