/**
 * The Helm releases the platform installs, by name and namespace: the drain removes only CRDs whose Helm
 * ownership marks name one of these. A test compares this list with the releases the program declares,
 * so it cannot drift from the components.
 */
import type { HelmReleaseRef } from "./crds";

/** Every Helm release of the platform's add-ons (Bank of Sirius's exporters install no CRDs). */
export const PLATFORM_HELM_RELEASES: readonly HelmReleaseRef[] = [
    { name: "kic", namespace: "nginx-ingress" },
    { name: "certmgr", namespace: "cert-manager" },
    { name: "eck-operator", namespace: "logstore" },
    { name: "fluent-bit", namespace: "logagent" },
    { name: "prometheus", namespace: "prometheus" },
    { name: "statsd", namespace: "prometheus" },
    { name: "opentelemetry-operator", namespace: "observability" },
];
