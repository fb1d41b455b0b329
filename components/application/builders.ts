/**
 * The Bank of Sirius builders' pure parts, public for tests and for anyone adapting the workloads: the package's index
 * (components/index.ts) exports them beside the unit's component, as it did from their folder before the unit
 * (components/sirius/).
 */
export * from "./monitoring";
export * from "./podSpec";
export * from "./routing";
export * from "./settingsObjects";
export * from "./workloadSpecs";
