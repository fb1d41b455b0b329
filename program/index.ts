/**
 * The program's mappings from validated configuration to component arguments: the `mara-platform/program`
 * entry point, for programs that read MARA configuration (`mara-platform/config`) and build the cluster
 * with `mara-platform/providers`, as this repository's index.ts does.
 */
export * from "./addOns";
export * from "./dockerProvider";
export * from "./platformArgs";
// The application unit's mapping (components/application/args.ts), where this entry point has always exported it.
export * from "../components/application/args";
