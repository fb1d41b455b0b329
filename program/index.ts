/**
 * The program's mappings from validated configuration to component arguments: the `mara-platform/program`
 * entry point, for programs that read MARA configuration (`mara-platform/config`) and build the cluster
 * with `mara-platform/providers`, as this repository's index.ts does.
 */
export * from "./addOns";
export * from "./dockerProvider";
export * from "./platformArgs";
export * from "./siriusOnPlatform";
