import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { AdmissionMode, admissionPolicies, ADMISSION_MODES, RULE_LABEL } from "../../policy/admission";
import { configProblems, PolicyConfig } from "../../policy/config";
import { RULES } from "../../policy/rules";
import { guardedOptions } from "../ownership/guard";

/** Arguments of {@link AdmissionPolicies}. */
export interface AdmissionPoliciesArgs {
    /**
     * How the cluster treats an object that breaks a rule: `audit` records it in the API server's audit log, `warn`
     * also warns the client, `deny` refuses it when the rule is mandatory (and warns when advisory). Required.
     */
    mode: AdmissionMode;
    /**
     * Levels and settings per rule, in the policy pack's configuration format (docs/policy.md); a disabled rule gets
     * no policy. Default: every rule at its default level and settings.
     */
    config?: PolicyConfig;
    /** Namespaces every binding leaves out, beyond each rule's own exemptions (docs/policy.md). Default none. */
    exemptNamespaces?: string[];
    /**
     * The namespaces the policies judge, such as the platform's own on a cluster shared with other teams: objects in
     * any other namespace, and cluster-scoped objects without the `app.kubernetes.io/part-of: mara` label, are left
     * alone (docs/policy.md, "Scope"). Default: the whole cluster.
     */
    namespaces?: string[];
}

/**
 * The policy pack's rules about Kubernetes objects, enforced by the API server itself: one ValidatingAdmissionPolicy
 * (CEL, admissionregistration.k8s.io/v1, built in since Kubernetes 1.30) and its binding per rule, generated from the
 * same rule definitions as the pack. They judge what Pulumi never sees: what Helm charts render, what a GitOps sync
 * or `kubectl` applies. Pass the cluster's Kubernetes provider in `opts.providers`.
 */
export class AdmissionPolicies extends pulumi.ComponentResource {
    /** Names of the ValidatingAdmissionPolicies, one per enabled rule (`mara-<rule>`). */
    public readonly policyNames: pulumi.Output<string[]>;

    constructor(name: string, args: AdmissionPoliciesArgs, opts?: pulumi.ComponentResourceOptions) {
        super("mara:k8s:AdmissionPolicies", name, {}, guardedOptions(name, opts));
        if (!(ADMISSION_MODES as readonly string[]).includes(args.mode)) {
            throw new Error(`AdmissionPolicies: mode "${args.mode}" is not one of ${ADMISSION_MODES.join(", ")}.`);
        }
        // A configuration Pulumi's --policy-pack-config would refuse is refused here too, not read as defaults.
        const problems = args.config === undefined ? [] : configProblems(args.config, RULES);
        if (problems.length > 0) throw new Error(`AdmissionPolicies: config is not a policy configuration (docs/policy.md): ${problems.join("; ")}.`);
        const objects = admissionPolicies({ mode: args.mode, config: args.config, exemptNamespaces: args.exemptNamespaces, namespaces: args.namespaces });
        const names: pulumi.Output<string>[] = [];
        for (const policy of objects.filter((o) => o.kind === "ValidatingAdmissionPolicy")) {
            const rule = policy.metadata!.labels![RULE_LABEL]!;
            const binding = objects.find((o) => o.kind === "ValidatingAdmissionPolicyBinding" && o.metadata!.labels![RULE_LABEL] === rule)!;
            const vap = new k8s.admissionregistration.v1.ValidatingAdmissionPolicy(
                `${name}-${rule}`,
                { metadata: policy.metadata, spec: policy.spec as k8s.types.input.admissionregistration.v1.ValidatingAdmissionPolicySpec },
                { parent: this },
            );
            // The binding names the policy through its output, so it is created after the policy and deleted before it.
            new k8s.admissionregistration.v1.ValidatingAdmissionPolicyBinding(
                `${name}-${rule}-binding`,
                { metadata: binding.metadata, spec: { ...(binding.spec as k8s.types.input.admissionregistration.v1.ValidatingAdmissionPolicyBindingSpec), policyName: vap.metadata.name } },
                { parent: this },
            );
            names.push(vap.metadata.name);
        }
        this.policyNames = pulumi.all(names);
        this.registerOutputs({ policyNames: this.policyNames });
    }
}
