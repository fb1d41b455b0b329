/**
 * `mara:admissionPolicies` and `mara:admissionPolicyScope`. The policies are `admissionregistration.k8s.io/v1`
 * ValidatingAdmissionPolicies, which a Kubernetes older than {@link ADMISSION_POLICY_MIN_MINOR} does not serve (the API
 * server answers "no matches for kind" half-way through `up`): a cluster version this stack names is checked here, an
 * existing cluster's by `mara doctor` (cli/doctor/admission.ts), which `mara up` runs first, and `mara render
 * --kube-version` by {@link admissionVersionProblem}. Older clusters serve only v1beta1 (1.28, 1.29), and only where
 * their owner turned that API on, so the platform does not render it: it refuses.
 *
 * The scope: on an existing cluster (kubeconfig) the platform is one tenant among others, so by default the policies
 * judge only its own namespaces; a cluster the stack creates is the platform's own, so they judge every namespace.
 */
import { ADMISSION_POLICY_MIN_MINOR, AdmissionMode, AdmissionScope, InfraType } from "../../contracts";
import { compareVersions, Lookup } from "../../config/lookup";
import { configSetCommand } from "../../config/problems";
import type { Findings } from "../../config/resolve";

/** The admission policies' validated settings (`MaraConfig.admissionPolicies`): whether and how they enforce the guardrails, and where. */
export interface AdmissionPoliciesSettings {
    /** How the policies enforce the guardrails (`mara:admissionPolicies`); none: no policies are installed. */
    readonly mode: "none" | AdmissionMode;
    /** The platform's namespaces, or the whole cluster (`mara:admissionPolicyScope`; per infrastructure type by default). */
    readonly scope: AdmissionScope;
}

/**
 * What {@link checkAdmissionPolicies} reads of the infrastructure's settings (MaraConfig's `InfraConfig`): the cluster
 * version it names. Declared here, not imported, because config/model.ts imports this module's section type.
 */
export type InfraVersion = { readonly type: "aws"; readonly eks: { readonly version: string } } | { readonly type: "digitalocean" | "linode"; readonly k8sVersion: string } | { readonly type: "kubeconfig" };

/** The section from the resolved keys and the scope {@link checkAdmissionPolicies} settled on. */
export function admissionPoliciesSettings({ d }: Pick<Lookup, "d">, scope: AdmissionScope): AdmissionPoliciesSettings {
    return { mode: d("admissionPolicies"), scope };
}

/** The scope when `mara:admissionPolicyScope` is not set: see the module comment. */
export const defaultAdmissionScope = (infraType: InfraType | undefined): AdmissionScope => (infraType === "aws" || infraType === "digitalocean" || infraType === "linode" ? "cluster" : "platform");

/**
 * Why admission policies cannot be installed on Kubernetes `version` (`1.29`, `1.29.3`, `1.29.1-do.0`), or undefined
 * when that minor serves them or the version names no minor (`latest`).
 */
export function admissionVersionProblem(version: string): string | undefined {
    const minor = /^v?(\d+\.\d+)/.exec(version)?.[1];
    if (minor === undefined || compareVersions(minor, ADMISSION_POLICY_MIN_MINOR) >= 0) return undefined;
    return (
        `Kubernetes ${minor} does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy, which the admission policies are ` +
        `(GA and on by default from ${ADMISSION_POLICY_MIN_MINOR}; 1.28 and 1.29 serve only v1beta1, where the cluster's owner turns it on)`
    );
}

/** Checks the two keys together, and the policies against the cluster version the configuration names. */
export function checkAdmissionPolicies({ r, d, keyOf }: Lookup, infraType: InfraType | undefined, infra: InfraVersion | undefined, findings: Findings): AdmissionScope {
    const mode = d("admissionPolicies");
    const scope = r("admissionPolicyScope");
    if (mode === "none" && scope.source !== undefined && scope.value !== undefined) {
        findings.warn(`${keyOf("admissionPolicyScope")} = ${scope.raw?.trim()} does nothing while ${keyOf("admissionPolicies")} is none: no admission policies are installed.`);
    }
    const version = infra?.type === "aws" ? { key: keyOf("eksVersion"), value: infra.eks.version } : infra?.type === "linode" ? { key: keyOf("lkeK8sVersion"), value: infra.k8sVersion } : infra?.type === "digitalocean" ? { key: keyOf("doK8sVersion"), value: infra.k8sVersion } : undefined;
    const problem = mode !== "none" && version ? admissionVersionProblem(version.value) : undefined;
    if (problem && version) {
        findings.problem({
            key: keyOf("admissionPolicies"),
            value: mode,
            problem: `installs ValidatingAdmissionPolicies, but ${version.key} is ${version.value}: ${problem}`,
            allowed: `none on a cluster older than ${ADMISSION_POLICY_MIN_MINOR}; audit, warn or deny on ${ADMISSION_POLICY_MIN_MINOR} or later`,
            fix: `${configSetCommand(version.key, ADMISSION_POLICY_MIN_MINOR)} or later, or ${configSetCommand(keyOf("admissionPolicies"), "none")}`,
        });
    }
    return scope.value ?? defaultAdmissionScope(infraType);
}
