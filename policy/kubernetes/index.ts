/** The rules about Kubernetes objects, in the order docs/policy.md lists them. */
import type { KubernetesRule } from "../rule";
import { certManagerController } from "./certManagerController";
import { containerResources } from "./containerResources";
import { configMapCredentials, envCredentials } from "./credentials";
import { defaultIngressClass } from "./defaultIngressClass";
import { hostNamespaces } from "./hostNamespaces";
import { hostPath } from "./hostPath";
import { imagePinned } from "./imagePinned";
import { ingressClass, ingressTls } from "./ingress";
import { loadBalancerNamespace } from "./loadBalancer";
import { privilegedContainers } from "./privileged";
import { ebsStorageClassEncrypted } from "./storageClass";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const KUBERNETES_RULES: readonly KubernetesRule<any>[] = [
    containerResources,
    imagePinned,
    privilegedContainers,
    hostNamespaces,
    hostPath,
    loadBalancerNamespace,
    ingressClass,
    ingressTls,
    configMapCredentials,
    envCredentials,
    ebsStorageClassEncrypted,
    defaultIngressClass,
    certManagerController,
];
