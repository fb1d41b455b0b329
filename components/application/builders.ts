/** The Bank of Sirius builders' pure parts, public for tests and for anyone adapting the workloads. */
export * from "./monitoring";
export * from "./podSpec";
export * from "./routing";
export * from "./settingsObjects";
export * from "./workloadSpecs";
