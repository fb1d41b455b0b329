/**
 * The contracts between the modules: what providers hand to components (the cluster, its registry and
 * facts), the chart catalogue, the defaults of every component argument and the validation patterns
 * that config and components share. It imports nothing from the rest of the package.
 */
export * from "./charts";
export * from "./cluster";
export * from "./defaults";
export * from "./names";
export * from "./patterns";
export * from "./registry";
export * from "./crds";
export * from "./kicSource";
export * from "./guardrails";
export * from "./gitSource";
export * from "./pulumiStack";
export * from "./alertReceivers";
