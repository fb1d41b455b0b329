/** Typed configuration: key table, validation and loading. Chart coordinates and defaults come from ../contracts. */
export * from "./keys";
export * from "./addOnKeys";
export { INFRA_TYPES, type InfraType } from "../contracts";
export * from "./load";
export * from "./model";
export * from "./problems";
export * from "./configError";
export type { RawConfig } from "./resolve";
export * from "./stackFile";
export * from "./validate";
export * from "./projectConfig";
export { isKubeconfigPath } from "./infraSettings";
export { checkKubeconfig } from "./kubeconfigFile";
export { inspectLocalPath, parseSourceLocation, resolveLocalPath, type LocalPath, type SourceLocation } from "./localPaths";
export { Redactor, REDACTED, shorten } from "./redact";
export { redactUrlCredentials } from "../contracts/urlCredentials";
// The value types keys are declared with, for the keys of an add-on of your own (addOnKeys.ts).
export { boolean, fqdn, helmRepoUrl, httpsUrl, integer, kubernetesName, list, oneOf, text, type ValueType } from "./valueTypes";
