import Testing

@testable import UpgradeObjC

@Suite("Objective-C type encodings: the return type")
struct ObjectiveCTypeEncodingTests {
    @Test(
        "the return type is read up to the frame size, whole for pointers, structs, unions, arrays and named classes",
        arguments: [
            ("C16@0:8", "C"), ("v16@0:8", "v"), ("Vv16@0:8", "Vv"), ("rn*16@0:8", "rn*"), ("^{S=ii}16@0:8", "^{S=ii}"),
            ("{P={Q=dd}i}24@0:8", "{P={Q=dd}i}"), ("(U=if)16@0:8", "(U=if)"), ("[4i]16@0:8", "[4i]"),
            ("@\"NSString\"16@0:8", "@\"NSString\""), ("@?16@0:8", "@?"), ("@16@0:8", "@"), ("", ""), ("C", "C"),
        ])
    func returnType(encoding: String, expected: String) {
        #expect(ObjectiveCTypeEncoding.returnType(of: encoding) == expected)
    }

    @Test(
        "BOOL's encodings on every runtime, and void, with or without qualifiers, are the step's kinds",
        arguments: [
            ("C", ObjectiveCTypeEncoding.ReturnKind?.some(.bool)), ("c", .bool), ("B", .bool), ("v", .void),
            ("Vv", .void),
            ("@", nil), ("i", nil), ("^C", nil), ("*", nil), ("", nil), ("V", nil),
        ])
    func kind(returnType: String, expected: ObjectiveCTypeEncoding.ReturnKind?) {
        #expect(ObjectiveCTypeEncoding.kind(of: returnType) == expected)
    }
}
