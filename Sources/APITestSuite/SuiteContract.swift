package import APITestOpenAPI
import APITestSupport
import APITestYAML

/// A suite's OpenAPI contract: the loaded document and the setting it was loaded from (the same for every suite that
/// names the same document with the same options). Equal when the settings are: a contract is never compared.
package struct SuiteContract: Sendable, Hashable {
    /// The document, loaded and compiled.
    package var contract: OpenAPIContract
    /// Where it came from and how it is applied (`strict`, `server`, `ignore`).
    package var setting: OpenAPISetting
    /// The document's path as messages and coverage name it: relative to the working directory when inside it
    /// (worked out once, not for every response).
    package var displayPath: String

    package init(contract: OpenAPIContract, setting: OpenAPISetting) {
        self.contract = contract
        self.setting = setting
        self.displayPath = FilePaths.display(setting.absolutePath)
    }

    package static func == (lhs: SuiteContract, rhs: SuiteContract) -> Bool {
        lhs.setting == rhs.setting
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(setting)
    }
}
