/**
 * The admission policies' configuration keys, in the "Admission policies" group: whether and how they enforce the guardrails
 * (`mara:admissionPolicies`) and where (`mara:admissionPolicyScope`). Declared with the key machinery
 * (config/keySpec.ts) and spread into the key table (config/keys.ts); the rules across them are in settings.ts. The
 * policies have no chart: they are the rules of policy/, applied as objects.
 */
import { ADMISSION_MODES, ADMISSION_SCOPES, AdmissionMode } from "../../contracts";
import { spec } from "../../config/keySpec";
import { oneOf } from "../../config/valueTypes";

/** The two keys (MARA had no admission policies, so no aliases). */
export const ADMISSION_POLICIES_KEYS = {
    admissionPolicies: spec({
        key: "mara:admissionPolicies",
        type: oneOf<"none" | AdmissionMode>(["none", ...ADMISSION_MODES]),
        // Not "off": YAML 1.1 readers take off for false.
        default: "none",
        description:
            "Install the guardrails in the cluster as ValidatingAdmissionPolicies (Kubernetes 1.30 or later; docs/policy.md): none, audit (record violations in the audit log), warn (also warn the client) or deny (refuse what breaks a mandatory rule, warn about advisory ones).",
        group: "Admission policies",
    }),
    admissionPolicyScope: spec({
        key: "mara:admissionPolicyScope",
        type: oneOf(ADMISSION_SCOPES),
        defaultNote: "platform on an existing cluster (kubeconfig), cluster on a cluster the stack creates",
        description:
            "Where mara:admissionPolicies judges objects: platform (the platform's namespaces and its own cluster-scoped objects; other teams' namespaces are left alone) or cluster (every namespace: other teams' objects too). mara doctor lists what a cluster-wide choice would refuse today.",
        example: "platform",
        group: "Admission policies",
    }),
};
