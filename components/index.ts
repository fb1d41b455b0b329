/** The components of the MARA platform: the library surface of this package. */
export * from "./application";
export * from "./certManager";
export * from "./ecr";
export * from "./eks";
export * from "./helmRelease";
export * from "./ingressController";
export * from "./kicImage";
export * from "./kubeconfig";
export * from "./logAgent";
export * from "./logstore";
export * from "./observability";
export * from "./platform";
export * from "./prometheus";
export * from "./secrets";
export * from "./siriusWorkloads";
export * from "./vpc";
export * from "./vpcLayout";
