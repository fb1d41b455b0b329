/** Typed configuration: key table, validation and loading. Chart coordinates and defaults come from ../contracts. */
export * from "./keys";
export { INFRA_TYPES, type InfraType } from "../contracts";
export * from "./load";
export * from "./model";
export * from "./problems";
export type { RawConfig } from "./resolve";
export * from "./stackFile";
export * from "./validate";
export * from "./projectConfig";
export { expandHome, isKubeconfigPath } from "./infraSettings";
