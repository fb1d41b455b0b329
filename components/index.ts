/** The components of the MARA platform: the library surface of this package. */
export * from "./ecr";
export * from "./eks";
export * from "./kubeconfig";
export * from "./vpc";
export * from "./vpcLayout";
