/**
 * AdmissionPolicies: one ValidatingAdmissionPolicy and binding per enabled rule, valid Kubernetes objects, the
 * binding after its policy, the actions the mode and level call for, and the rules' namespace exemptions. On a
 * Platform, the host-path rule allows exactly the paths its Fluent Bit mounts on that cluster.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AdmissionPolicies, logAgentValues, Platform } from "../../components";
import { KUBERNETES_RULES } from "../../policy/kubernetes";
import { EKS_PLATFORM, EXISTING_CLUSTER_PLATFORM } from "../../providers/platformFacts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { validateConfig } from "../../config";
import { doctorPlan } from "../../cli/doctor/plan";
import { withClusterAddOns } from "../support/clusterAddOns";
import { fixture } from "../support/config";
import { runProgram } from "../support/program";
import { find, installMocks, ofType, Registration, settle } from "../support/mocks";

const VAP = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy";
const BINDING = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding";

describe("AdmissionPolicies in deny mode", () => {
    let regs: Registration[];
    let provider: string;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        new AdmissionPolicies("guardrails", { mode: "deny", config: { "image-pinned": "advisory", "ingress-tls": "disabled" } }, { providers: [k8s] });
        await settle();
        provider = await k8sProviderRef(k8s);
    });

    it("makes a policy and a binding per enabled rule, children of the component on its provider", () => {
        const enabled = KUBERNETES_RULES.filter((r) => r.id !== "ingress-tls").map((r) => `mara-${r.id}`);
        expect(ofType(regs, VAP).map((r) => (r.inputs!.metadata as { name: string }).name).sort()).toEqual(enabled.sort());
        expect(ofType(regs, BINDING).map((r) => (r.inputs!.metadata as { name: string }).name).sort()).toEqual(enabled.sort());
        const parent = find(regs, "mara:k8s:AdmissionPolicies", "guardrails").urn;
        for (const r of [...ofType(regs, VAP), ...ofType(regs, BINDING)]) {
            expect(r.parent).toBe(parent);
            expect(r.provider).toBe(provider);
        }
    });

    it("are valid Kubernetes objects", () => {
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked.length).toBe(2 * (KUBERNETES_RULES.length - 1));
    });

    it("binds each policy after creating it, refusing mandatory violations and warning about advisory ones", () => {
        const binding = find(regs, BINDING, "guardrails-container-resources-binding");
        expect(binding.propertyDependencies.spec).toContain(find(regs, VAP, "guardrails-container-resources").urn);
        expect(binding.inputs!.spec).toMatchObject({ policyName: "mara-container-resources", validationActions: ["Deny", "Audit"] });
        expect(find(regs, BINDING, "guardrails-image-pinned-binding").inputs!.spec).toMatchObject({ validationActions: ["Warn", "Audit"] });
    });

    it("leaves out each rule's exempt namespaces, and no others", () => {
        const selector = (id: string) => (find(regs, BINDING, `guardrails-${id}-binding`).inputs!.spec as { matchResources?: unknown }).matchResources;
        expect(selector("no-host-namespaces")).toEqual({
            namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "NotIn", values: ["kube-system", "prometheus"] }] },
        });
        expect(selector("load-balancer-namespace")).toBeUndefined();
    });

    it("refuses what cannot be evaluated", () => {
        for (const r of ofType(regs, VAP)) expect((r.inputs!.spec as { failurePolicy: string }).failurePolicy).toBe("Fail");
    });
});

describe("AdmissionPolicies in audit and warn modes", () => {
    it("only record, or record and warn", async () => {
        const { registrations } = await installMocks();
        new AdmissionPolicies("audit", { mode: "audit" }, { providers: [testProvider()] });
        new AdmissionPolicies("warn", { mode: "warn", exemptNamespaces: ["legacy"] }, { providers: [testProvider("other")] });
        await settle();
        const actions = (name: string) => (find(registrations, BINDING, name).inputs!.spec as { validationActions: string[] }).validationActions;
        expect(actions("audit-container-resources-binding")).toEqual(["Audit"]);
        expect(actions("warn-container-resources-binding")).toEqual(["Warn", "Audit"]);
        expect(JSON.stringify(find(registrations, BINDING, "warn-ingress-tls-binding").inputs!.spec)).toContain('"values":["legacy"]');
    });

    // The component is registered before its constructor refuses the arguments, and the SDK finishes that
    // registration later: each test waits for it, on mocks of its own, so it never reaches the next test's mocks
    // (whose monitor does not know the resource) as an unhandled rejection.
    it("refuses a mode it does not know", async () => {
        await installMocks();
        expect(() => new AdmissionPolicies("x", { mode: "strict" as never })).toThrow('AdmissionPolicies: mode "strict" is not one of audit, warn, deny.');
        await settle();
    });

    it("refuses a configuration of the wrong type rather than reading it as the defaults", async () => {
        await installMocks();
        expect(() => new AdmissionPolicies("x", { mode: "deny", config: ["container-resources"] as never })).toThrow("AdmissionPolicies: config is not a policy configuration (docs/policy.md): the configuration is a list;");
        expect(() => new AdmissionPolicies("y", { mode: "deny", config: { "container-resources": 1 as never } })).toThrow('"container-resources" is a number (1); it must be a level (advisory, mandatory, disabled)');
        expect(() => new AdmissionPolicies("z", { mode: "deny", config: { "load-balancer-namespace": { namespaces: "edge" } } })).toThrow('setting "namespaces" is a string ("edge"); it must be a list of strings');
        await settle();
    });
});

describe("AdmissionPolicies scoped to the platform's namespaces", () => {
    let regs: Registration[];
    const spec = (name: string) => find(regs, BINDING, `scoped-${name}-binding`).inputs!.spec as { matchResources?: unknown };

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        new AdmissionPolicies("scoped", { mode: "deny", namespaces: ["nginx-ingress", "bank", "prometheus", "bank"] }, { providers: [testProvider()] });
        await settle();
    });

    it("binds each namespaced rule to those namespaces by name, less the rule's exemptions", () => {
        expect(spec("load-balancer-namespace").matchResources).toEqual({ namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["bank", "nginx-ingress", "prometheus"] }] } });
        // prometheus is exempt from the host-namespace rule (the node exporter), nginx-ingress from the resources rule.
        expect(spec("no-host-namespaces").matchResources).toEqual({ namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["bank", "nginx-ingress"] }] } });
        expect(spec("container-resources").matchResources).toEqual({ namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["bank"] }] } });
    });

    it("binds each cluster-scoped rule to the platform's labelled objects, which no namespace selector could", () => {
        for (const id of ["default-ingress-class", "ebs-storage-class-encrypted"]) {
            expect(spec(id).matchResources, id).toEqual({ objectSelector: { matchLabels: { "app.kubernetes.io/part-of": "mara" } } });
        }
    });

    it("are valid Kubernetes objects", () => {
        expect(validateKubernetesObjects(regs).errors).toEqual([]);
    });

    it("makes no policy for a rule every one of whose namespaces is exempt (an empty In list is invalid)", async () => {
        const { registrations } = await installMocks();
        new AdmissionPolicies("system", { mode: "deny", namespaces: ["kube-system"] }, { providers: [testProvider()] });
        await settle();
        const names = ofType(registrations, VAP).map((r) => (r.inputs!.metadata as { name: string }).name);
        expect(names).not.toContain("mara-container-resources");
        expect(names).toContain("mara-load-balancer-namespace");
        expect(ofType(registrations, BINDING).length).toBe(names.length);
    });
});

describe("a Platform's guardrails scope", () => {
    const bindingOf = (regs: Registration[], platform: string, rule: string) => (find(regs, BINDING, `${platform}-admission-policies-${rule}-binding`).inputs!.spec as { matchResources?: unknown }).matchResources;

    it("is the platform's namespaces by default: its add-ons', MetalLB's and the NFS provisioner's when it installs them, and those it is given", async () => {
        const { registrations } = await installMocks();
        // The NFS provisioner and the policies under their arguments' deprecated names, storage.nfs and guardrails, which the Platform still reads.
        new Platform(
            "lab",
            { cluster: EXISTING_CLUSTER_PLATFORM, metallb: { addresses: ["10.0.0.0/28"] }, storage: { nfs: { server: "10.0.1.1", path: "/srv" } }, guardrails: { mode: "deny", namespaces: ["bank"] } },
            { providers: [testProvider()] },
        );
        await settle();
        expect(find(registrations, "mara:addons:NfsStorage", "lab-nfs")).toBeDefined();
        expect(bindingOf(registrations, "lab", "load-balancer-namespace")).toEqual({
            namespaceSelector: {
                matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: ["bank", "cert-manager", "logagent", "logstore", "metallb-system", "nfs-provisioner", "nginx-ingress", "observability", "prometheus"].sort() }],
            },
        });
    }, 180_000);

    it("in the program on an existing cluster, is exactly the namespaces mara doctor plans for the stack", async () => {
        const base = withClusterAddOns(fixture("mara-kubeconfig", { secrets: { "mara:grafanaAdminPassword": "pw" } }));
        const raw = { ...base, values: { ...base.values, "mara:admissionPolicies": "deny" } };
        const run = await runProgram(raw);
        expect(run.error).toBeUndefined();
        const judged = (find(run.registrations, BINDING, "platform-admission-policies-load-balancer-namespace-binding").inputs!.spec as { matchResources: { namespaceSelector: { matchExpressions: { values: string[] }[] } } })
            .matchResources.namespaceSelector.matchExpressions[0]!.values;
        expect(judged).toEqual([...doctorPlan(validateConfig(raw).config!).namespaces].sort());
        expect(judged).toEqual(expect.arrayContaining(["metallb-system", "nfs-provisioner"]));
    }, 180_000);

    it("is the whole cluster when asked", async () => {
        const { registrations } = await installMocks();
        new Platform("own", { cluster: EKS_PLATFORM, admissionPolicies: { mode: "deny", scope: "cluster", namespaces: ["bank"] } }, { providers: [testProvider()] });
        await settle();
        expect(bindingOf(registrations, "own", "load-balancer-namespace")).toBeUndefined();
        expect(bindingOf(registrations, "own", "default-ingress-class")).toBeUndefined();
    }, 180_000);
});

describe("a Platform with guardrails", () => {
    it("allows the host paths its Fluent Bit mounts on that cluster, unless told otherwise", async () => {
        const { registrations } = await installMocks();
        new Platform("docker", { cluster: { ...EXISTING_CLUSTER_PLATFORM, containerRuntime: "docker" }, admissionPolicies: { mode: "deny", config: { "host-path-allow-list": "advisory" } } }, { providers: [testProvider("d")] });
        new Platform("own", { cluster: EKS_PLATFORM, admissionPolicies: { mode: "deny", config: { "host-path-allow-list": { allowedPaths: ["/srv/logs"] } } } }, { providers: [testProvider("o")] });
        await settle();
        const allowed = (platform: string) => {
            const vars = (find(registrations, VAP, `${platform}-admission-policies-host-path-allow-list`).inputs!.spec as { variables: { name: string; expression: string }[] }).variables;
            return vars.find((v) => v.name === "allowedPaths")!.expression;
        };
        const mounted = (facts: typeof EKS_PLATFORM) =>
            (logAgentValues({ ...facts, elasticsearchHost: "es", secretName: "s" }).daemonSetVolumes as { hostPath: { path: string } }[]).map((v) => `'${v.hostPath.path}'`).join(", ");
        expect(allowed("docker")).toBe(`[${mounted({ ...EXISTING_CLUSTER_PLATFORM, containerRuntime: "docker" })}]`);
        expect(allowed("docker")).toContain("'/var/lib/docker/containers'");
        expect((find(registrations, BINDING, "docker-admission-policies-host-path-allow-list-binding").inputs!.spec as { validationActions: string[] }).validationActions).toEqual(["Warn", "Audit"]);
        expect(allowed("own")).toBe("['/srv/logs']");
        expect(find(registrations, "mara:k8s:AdmissionPolicies", "own-admission-policies").parent).toBe(find(registrations, "mara:platform:Platform", "own").urn);
    }, 180_000);

    it("reads the deprecated guardrails argument, and admissionPolicies's members win over it", async () => {
        const { registrations } = await installMocks();
        new Platform("both", { cluster: EKS_PLATFORM, guardrails: { mode: "audit", scope: "cluster" }, admissionPolicies: { mode: "deny" } }, { providers: [testProvider()] });
        await settle();
        expect((find(registrations, BINDING, "both-admission-policies-container-resources-binding").inputs!.spec as { validationActions: string[] }).validationActions).toEqual(["Deny", "Audit"]);
        // The scope came from guardrails alone: cluster-wide, so no binding is narrowed to the platform's namespaces.
        expect((find(registrations, BINDING, "both-admission-policies-load-balancer-namespace-binding").inputs!.spec as { matchResources?: unknown }).matchResources).toBeUndefined();
    }, 180_000);

    it("has none without them", async () => {
        const { registrations } = await installMocks();
        new Platform("plain", { cluster: EKS_PLATFORM }, { providers: [testProvider()] });
        await settle();
        expect(ofType(registrations, "mara:k8s:AdmissionPolicies")).toEqual([]);
    }, 180_000);
});
