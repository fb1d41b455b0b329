/**
 * Passwords over time, as the whole program registers it: the databases re-apply the current
 * passwords on every start through a credentials container that reads them only from Secrets, and
 * every pod that reads a Secret restarts when that Secret changes (its revision annotation changes),
 * while pods that do not read it are left alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS_CONTAINER, CREDENTIALS_SCRIPT, SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import { aws } from "../support/config";
import { find, ofType, plainStrings, Registration, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";

const PASSWORDS = { "mara:siriusAccountsPassword": "accounts-pw-1", "mara:siriusLedgerPassword": "ledger-pw-1", "mara:siriusDemoPassword": "demo-pw-1" };

type Env = { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } };
type Container = { name: string; image: string; command?: string[]; args?: string[]; env?: Env[]; volumeMounts?: { name: string; mountPath: string }[] };
type Workload = { metadata: { name: string }; spec: { template: { metadata: { annotations?: Record<string, string> }; spec: { containers: Container[]; volumes: { name: string; emptyDir?: object }[] } } } };

async function workloads(passwords: Record<string, string>) {
    const run = await runProgram(aws(passwords, { secret: Object.keys(passwords) }));
    expect(run.error).toBeUndefined();
    const regs = run.registrations;
    const byName = new Map<string, Workload>();
    for (const r of [...ofType(regs, "kubernetes:apps/v1:Deployment"), ...ofType(regs, "kubernetes:apps/v1:StatefulSet")]) {
        const w = unwrapSecrets(r.inputs) as Workload;
        byName.set(w.metadata.name, w);
    }
    return { regs, byName };
}
const revision = (w: Workload) => w.spec.template.metadata.annotations?.[SECRETS_REVISION_ANNOTATION];

describe("password rotation", () => {
    let base: Awaited<ReturnType<typeof workloads>>;
    beforeAll(async () => {
        base = await workloads(PASSWORDS);
    }, 300_000);

    it("runs a credentials container beside each database, fed from Secrets only", () => {
        for (const [db, secretKeys] of [
            ["accounts-db", ["POSTGRES_PASSWORD", "DEMO_LOGIN_USERNAME", "DEMO_LOGIN_PASSWORD"]],
            ["ledger-db", ["POSTGRES_PASSWORD"]],
        ] as const) {
            const spec = base.byName.get(db)!.spec.template.spec;
            const [postgres, credentials] = spec.containers;
            expect(credentials!.name).toBe(CREDENTIALS_CONTAINER);
            expect(credentials!.image).toBe(postgres!.image);
            expect(credentials!.command).toEqual(["sh", "-c", CREDENTIALS_SCRIPT, CREDENTIALS_CONTAINER]);
            expect(credentials!.env!.map((e) => e.name)).toEqual(secretKeys);
            expect(credentials!.env!.every((e) => e.value === undefined && e.valueFrom?.secretKeyRef)).toBe(true);
            // Both containers share the socket directory, the only way in that needs no old password.
            for (const c of [postgres!, credentials!]) expect(c.volumeMounts).toContainEqual({ name: "postgres-socket", mountPath: "/var/run/postgresql" });
            expect(spec.volumes).toContainEqual({ name: "postgres-socket", emptyDir: {} });
        }
    });

    it("never puts a password in a plain env value, a command, an argument or any non-secret input", () => {
        const plain = base.regs.flatMap((r: Registration) => plainStrings(r.inputs));
        for (const pw of Object.values(PASSWORDS)) expect(plain.filter((s) => s.includes(pw))).toEqual([]);
        // They are in the registrations, inside secrets: the check above is not vacuous.
        const all = JSON.stringify(base.regs.map((r) => unwrapSecrets(r.inputs)));
        for (const pw of Object.values(PASSWORDS)) expect(all).toContain(pw);
    });

    it("marks every pod with the revisions of the Secrets it reads, and only those", () => {
        const names = (w: string) => revision(base.byName.get(w)!)?.split(",").map((p) => p.split("=")[0]);
        expect(names("accounts-db")).toEqual(["accounts-db-credentials", "demo-login"]);
        expect(names("ledger-db")).toEqual(["ledger-db-credentials"]);
        expect(names("frontend")).toEqual(["demo-login", "jwt-key"]);
        expect(names("userservice")).toEqual(["accounts-db-credentials", "jwt-key"]);
        expect(names("balancereader")).toEqual(["jwt-key", "ledger-db-credentials"]);
        expect(revision(base.byName.get("loadgenerator")!)).toBeUndefined();
        // Resource versions are the API server's counters: nothing in them is derived from the Secrets' data.
        expect(revision(base.byName.get("accounts-db")!)).toMatch(/^accounts-db-credentials=\d+,demo-login=\d+$/);
    });

    it("rolls exactly the pods that read a changed password, the exporter included, and nothing on an unchanged run", async () => {
        const same = await workloads(PASSWORDS);
        for (const [name, w] of base.byName) expect(revision(same.byName.get(name)!), name).toBe(revision(w));

        const changed = await workloads({ ...PASSWORDS, "mara:siriusAccountsPassword": "accounts-pw-2" });
        const rolled = [...base.byName.keys()].filter((n) => revision(changed.byName.get(n)!) !== revision(base.byName.get(n)!)).sort();
        expect(rolled).toEqual(["accounts-db", "contacts", "userservice"]);
        const exporter = (regs: Registration[]) => (unwrapSecrets(find(regs, "kubernetes:helm.sh/v3:Release", "bank-of-sirius-accountsdbmon").inputs) as { values: { annotations: Record<string, string> } }).values.annotations;
        expect(exporter(changed.regs)[SECRETS_REVISION_ANNOTATION]).not.toBe(exporter(base.regs)[SECRETS_REVISION_ANNOTATION]);

        const demo = await workloads({ ...PASSWORDS, "mara:siriusDemoPassword": "demo-pw-2" });
        expect([...base.byName.keys()].filter((n) => revision(demo.byName.get(n)!) !== revision(base.byName.get(n)!)).sort()).toEqual(["accounts-db", "frontend"]);
    }, 120_000);

    it("updates a workload only after the Secrets it reads", () => {
        const secretUrn = (name: string) => ofType(base.regs, "kubernetes:core/v1:Secret").find((r) => (unwrapSecrets(r.inputs) as { metadata: { name: string } }).metadata.name === name)!.urn!;
        const sts = find(base.regs, "kubernetes:apps/v1:StatefulSet", "bank-of-sirius-accounts-db");
        expect(sts.dependencies).toEqual(expect.arrayContaining([secretUrn("accounts-db-credentials"), secretUrn("demo-login")]));
    });
});
