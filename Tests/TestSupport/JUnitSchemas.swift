public import Foundation

/// The JUnit XML schema the reports are checked against: `junit-10.xsd` from the shared test data, and the same
/// schema with the two attributes apitest gives each `testcase` by default (`file`, `line`) and nothing else added.
public enum JUnitSchemas {
    /// `shared/testdata/junit/junit-10.xsd` (or `APITEST_JUNIT_XSD`).
    public static var surefire: URL {
        if let path = ProcessInfo.processInfo.environment["APITEST_JUNIT_XSD"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return SharedTestData.directory.appendingPathComponent("testdata/junit/junit-10.xsd")
    }

    /// The schema with `file` and `line` on `testcase`, written to `directory`; its path.
    public static func withLocations(in directory: URL) throws -> String {
        let schema = try String(contentsOf: surefire, encoding: .utf8)
        let anchor = "<xs:attribute name=\"classname\" type=\"xs:string\"/>"
        guard schema.components(separatedBy: anchor).count == 2 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: surefire.path])
        }
        let extended = schema.replacingOccurrences(
            of: anchor,
            with: anchor
                + "<xs:attribute name=\"file\" type=\"xs:string\"/>"
                + "<xs:attribute name=\"line\" type=\"xs:positiveInteger\"/>")
        let path = directory.appendingPathComponent("junit-10-locations.xsd")
        try extended.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }
}
