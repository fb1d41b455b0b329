/** Typed configuration: key table, chart catalogue, validation and loading. */
export * from "./catalogue";
export * from "./keys";
export * from "./load";
export * from "./model";
export * from "./problems";
export type { RawConfig } from "./resolve";
export * from "./stackFile";
export * from "./validate";
export * from "./pulumiYaml";
export * from "./projectConfig";
export * from "./reference";
export * from "./stackExample";
export { expandHome, isKubeconfigPath } from "./infraSettings";
