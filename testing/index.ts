/**
 * `mara-platform/testing`: Pulumi mocks for unit tests of programs built on the platform, answered by the simulated
 * cloud `mara plan` runs on, so a test of your own add-on or program sees the platform's outputs as a deploy would
 * give them. docs/library.md, "Testing your program".
 */
export { find, installMocks, ofType, promiseOf, providerRef, settle, type MockOptions, type RecordedMocks, type Registration } from "./mocks";
export { isWrappedSecret, unwrapSecrets } from "../offline/wrappedSecrets";
