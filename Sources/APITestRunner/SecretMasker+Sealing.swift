import APITestResults
import APITestSecrets

/// The masker seals a step's result (`StepDraft.sealed(by:)`): it has the two methods sealing asks for.
extension SecretMasker: SecretSealing {}
