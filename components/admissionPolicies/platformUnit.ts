/**
 * The admission policies on the Platform: their arguments (`PlatformArgs.admissionPolicies`), their member and how
 * they are created, over the namespaces of every add-on of the platform.
 */
import { AdmissionScope, DEFAULTS, PlatformFacts } from "../../contracts";
import type { PolicyConfig, RuleConfig } from "../../policy/config";
import { fluentBitHostPaths } from "../logAgent";
import type { PlatformUnit } from "../platformUnit";
import { AdmissionPolicies, AdmissionPoliciesArgs } from "./component";

/**
 * The guardrails in the cluster: the policy pack's rules about Kubernetes objects as ValidatingAdmissionPolicies.
 * The host-path rule allows Fluent Bit's paths on this cluster unless `config` says otherwise.
 */
export interface PlatformAdmissionPoliciesArgs extends Pick<AdmissionPoliciesArgs, "mode" | "config" | "exemptNamespaces"> {
    /**
     * Where the policies judge objects: `platform`, the platform's own namespaces (its add-ons', and `namespaces`) and
     * its labelled cluster-scoped objects; `cluster`, every namespace. Default `platform`: a component cannot tell a
     * cluster shared with other teams from one of its own, and the narrower scope never refuses a neighbour's update;
     * `mara:admissionPolicyScope` chooses per infrastructure type (docs/policy.md, "Scope").
     */
    scope?: AdmissionScope;
    /** Namespaces outside the Platform that are the platform's too, such as the application's. Default none. */
    namespaces?: string[];
}

/** @deprecated Use {@link PlatformAdmissionPoliciesArgs}, the same type under the add-on's one name. */
export type PlatformGuardrailsArgs = PlatformAdmissionPoliciesArgs;

declare module "../platformUnit" {
    interface PlatformArgs {
        /** Admission policies that hold everything applied to the cluster to the guardrails (docs/policy.md). Default: none installed. */
        admissionPolicies?: PlatformAdmissionPoliciesArgs;
        /**
         * @deprecated Use {@link PlatformArgs.admissionPolicies}, the same arguments under the add-on's one name. Still
         * read: where both are given, `admissionPolicies`'s members win.
         */
        guardrails?: PlatformAdmissionPoliciesArgs;
    }
    interface PlatformAddOns {
        /** The admission policies, when {@link PlatformArgs.admissionPolicies} asks for them. */
        readonly admissionPolicies?: AdmissionPolicies;
    }
}

/** The admission policies on the Platform: created last, over every add-on's namespace. */
export const ADMISSION_POLICIES_UNIT: PlatformUnit = {
    create({ name, args, facts, platform, namespaces: platformNamespaces }) {
        // The deprecated guardrails argument still counts; admissionPolicies's members win.
        const admission: PlatformAdmissionPoliciesArgs | undefined = args.admissionPolicies ? { ...args.guardrails, ...args.admissionPolicies } : args.guardrails;
        if (!admission) return {};
        const { scope, namespaces, ...policies } = admission;
        const admissionPolicies = new AdmissionPolicies(
            `${name}-admission-policies`,
            {
                ...policies,
                config: withFluentBitPaths(admission.config, facts),
                ...((scope ?? DEFAULTS.platform.admissionScope) === "platform" ? { namespaces: [...platformNamespaces, ...(namespaces ?? [])] } : {}),
            },
            { parent: platform },
        );
        return { admissionPolicies };
    },
    // Cluster-scoped policies and their bindings: no namespace of their own.
    namespaces: () => [],
};

/** The host-path rule's allow-list set to Fluent Bit's paths on this cluster, unless the configuration sets one. */
function withFluentBitPaths(config: PolicyConfig = {}, facts: PlatformFacts): PolicyConfig {
    const rule = "host-path-allow-list";
    const own: RuleConfig | undefined = config[rule];
    if (typeof own === "object" && own.allowedPaths !== undefined) return config;
    const allowedPaths = fluentBitHostPaths(facts);
    return { ...config, [rule]: typeof own === "string" ? { enforcementLevel: own, allowedPaths } : { ...own, allowedPaths } };
}
