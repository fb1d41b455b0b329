/**
 * The ownership guard as a library user meets it, under mocks: an add-on built alone (outside a Platform) gets its own
 * guard, which reads the cluster through the user's own provider; components built in the same turn of the program on
 * one provider share a guard, one built in a later turn gets its own; and a name the guard could only learn from
 * another object's output is refused at once, naming why.
 */
import * as k8s from "@pulumi/kubernetes";
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { CertManager, NfsStorage } from "../../components";
import { guardedOptions } from "../../components/ownership/guard";
import { testProvider } from "../support/k8s";
import { installMocks, Registration, settle, unwrapSecrets } from "../support/mocks";

const GUARD = "pulumi-nodejs:dynamic:Resource";
const guards = (regs: Registration[]) => regs.filter((r) => r.type === GUARD);
const inputsOf = (r: Registration) => unwrapSecrets(r.inputs) as { objects: { kind: string; name: string }[]; releases: { name: string; namespace: string }[]; kubeconfig: string };
/** The Kubernetes objects whose URN has `component` in its parent chain, and whether each waits for `guard`. */
const waiting = (regs: Registration[], component: string, guard: Registration) =>
    regs.filter((r) => r.custom && r.type.startsWith("kubernetes:") && r.urn!.includes(component)).map((r) => [r.name, r.dependencies.includes(guard.urn!)] as const);

describe("an add-on a library user builds alone", () => {
    let regs: Registration[];
    let provider: k8s.Provider;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        provider = testProvider();
        new NfsStorage("nfs", { server: "192.168.77.10", path: "/srv/nfs" }, { providers: [provider] });
        new CertManager("certs", {}, { providers: [provider] });
        await settle();
        // A later turn of the program: a component built inside an `apply`, as a library user might.
        await new Promise((r) => setImmediate(r));
        new CertManager("late", { namespace: "late-certs" }, { providers: [provider] });
        await settle();
    });

    it("gets a guard of its own, named after it, which every object of the turn waits for and which lists their names", () => {
        const [first, late] = guards(regs);
        expect(guards(regs).map((g) => g.name)).toEqual(["nfs-ownership", "late-ownership"]);
        expect(inputsOf(first!).objects.map((o) => `${o.kind} ${o.name}`)).toEqual([
            "Namespace nfs-provisioner",
            "ClusterRole mara-nfs-provisioner-runner",
            "ClusterRoleBinding run-mara-nfs-provisioner",
            "StorageClass mara-nfs",
            "Namespace cert-manager",
            "ClusterIssuer selfsigned-issuer",
        ]);
        expect(inputsOf(first!).releases).toEqual([{ name: "mara-nfs-provisioner", namespace: "nfs-provisioner" }, { name: "certmgr", namespace: "cert-manager" }]);
        for (const [name, waits] of [...waiting(regs, "NfsStorage", first!), ...waiting(regs, "mara:addons:CertManager", first!).filter(([n]) => !n.startsWith("late"))]) expect(waits, name).toBe(true);
        expect(inputsOf(late!).objects.map((o) => `${o.kind} ${o.name}`)).toEqual(["Namespace late-certs", "ClusterIssuer selfsigned-issuer"]);
        for (const [name, waits] of waiting(regs, "mara:addons:CertManager", late!).filter(([n]) => n.startsWith("late"))) expect(waits, name).toBe(true);
    });

    it("reads the cluster through the user's own provider's kubeconfig", () => {
        const kubeconfig = unwrapSecrets(regs.find((r) => r.type === "pulumi:providers:kubernetes")!.inputs!.kubeconfig);
        expect(inputsOf(guards(regs)[0]!).kubeconfig).toBe(kubeconfig);
    });
});

describe("a name the guard could only learn from another object's output", () => {
    it("is refused when the object is registered, saying why, instead of waiting for itself", async () => {
        await installMocks();
        class Team extends pulumi.ComponentResource {
            constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
                super("test:index:Team", name, {}, guardedOptions(name, opts));
                const source = new k8s.core.v1.ConfigMap(`${name}-source`, { metadata: { name: "source", namespace: "default" }, data: { ns: "team" } }, { parent: this });
                new k8s.core.v1.Namespace(`${name}-ns`, { metadata: { name: source.data.apply((d) => d.ns!) } }, { parent: this });
            }
        }
        expect(() => new Team("team", { providers: [testProvider()] })).toThrow(
            "team-ns: the Namespace's metadata.name must be a string; the ownership guard checks every such name before anything is created, so it must be a plain string when the object is registered.",
        );
        await settle();
    });
});
