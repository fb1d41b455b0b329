/** The infrastructure providers and their factory: the `mara-platform/providers` entry point. */
export * from "./aws";
export * from "./clusterAccess";
export * from "./digitalocean";
export * from "./externalRegistry";
export * from "./factory";
export * from "./kubeconfig";
export * from "./linode";
export * from "./platformFacts";
/** What every provider returns; defined in the contracts module, which components share. */
export type { ClusterInfrastructure, ContainerRegistry, PlatformFacts } from "../contracts";
