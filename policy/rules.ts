/** Every rule, in the order docs/policy.md lists them. */
import { ebsEncrypted, ecrScanOnPush, eksPublicEndpoint, eksSecretsEncryption } from "./cloud/aws";
import { doksControlPlaneFirewall } from "./cloud/digitalocean";
import { linodeDiskEncryption, lkeControlPlaneAcl } from "./cloud/linode";
import { KUBERNETES_RULES } from "./kubernetes";
import type { ResourceRule, Rule, StackRule } from "./rule";
import { oneCertManager } from "./stack/certManagers";
import { oneDefaultIngressClass } from "./stack/defaultIngressClasses";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const CLOUD_RULES: readonly ResourceRule<any>[] = [ebsEncrypted, eksSecretsEncryption, ecrScanOnPush, eksPublicEndpoint, doksControlPlaneFirewall, lkeControlPlaneAcl, linodeDiskEncryption];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const STACK_RULES: readonly StackRule<any>[] = [oneDefaultIngressClass, oneCertManager];

export const RULES: readonly Rule[] = [...KUBERNETES_RULES, ...CLOUD_RULES, ...STACK_RULES];
