/**
 * `mara kubeconfig` reads the stack's secret kubeconfig output through the Automation API, here from a
 * stand-in `pulumi` first on PATH (the real CLI cannot be installed on these machines), and merges it
 * into a kube config file.
 */
import * as fs from "fs";
import * as path from "path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { parse } from "yaml";
import { sampleKubeconfig } from "../support/mocks";
import { runMara } from "./support/io";
import { makeStandin, Standin, useStandinPath } from "./support/standin";

let s: Standin;
let restore: () => void;
beforeEach(() => {
    s = makeStandin({ current: "dev", stacks: { dev: { config: {}, outputs: {} } } });
    restore = useStandinPath(s);
});
afterEach(() => {
    restore();
    s.remove();
});

const deployed = () =>
    s.setState((st) => {
        st.stacks.dev!.outputs = {
            kubeconfig: { value: JSON.stringify(sampleKubeconfig("mara-dev")), secret: true },
            cluster_name: { value: "mara-dev", secret: false },
        };
    });
const run = (argv: string[], env: Record<string, string> = {}) => runMara(["kubeconfig", ...argv], { env: { HOME: s.home, PATH: s.path, ...env }, projectDir: s.projectDir, cwd: s.home });

it("merges the cluster into the user's kube config, keeps other entries, switches context, mode 0600", async () => {
    deployed();
    const file = path.join(s.home, ".kube", "config");
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: kind\n  cluster: {server: 'https://127.0.0.1:6443'}\nusers:\n- name: kind\n  user: {token: t}\ncontexts:\n- name: kind\n  context: {cluster: kind, user: kind}\ncurrent-context: kind\n", { mode: 0o644 });

    const r = await run([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Merged cluster, user and context "mara-dev" into ${file} (added; other entries kept) and made it the current context.`);
    const doc = parse(fs.readFileSync(file, "utf8"));
    expect(doc["current-context"]).toBe("mara-dev");
    expect(doc.clusters.map((c: { name: string }) => c.name)).toEqual(["kind", "mara-dev"]);
    expect(doc.users[1].user.exec.args).toEqual(["eks", "get-token", "--cluster-name", "mara-dev"]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["config"]); // no temp file left behind
    // The secret output was read with --show-secrets.
    expect(s.calls().some((c) => c.args.join(" ").startsWith("stack output --json --show-secrets --stack dev"))).toBe(true);

    const again = await run([]);
    expect(again.stdout).toContain('(replaced the earlier "mara-dev" entries; other entries kept)');
    expect(parse(fs.readFileSync(file, "utf8")).clusters).toHaveLength(2);
});

it("writes to the first KUBECONFIG entry, or --kubeconfig, creating the file", async () => {
    deployed();
    const first = path.join(s.home, "first", "config");
    expect((await run([], { KUBECONFIG: `${first}:${path.join(s.home, "second")}` })).code).toBe(0);
    expect(parse(fs.readFileSync(first, "utf8")).contexts).toEqual([{ name: "mara-dev", context: { cluster: "mara-dev", user: "mara-dev" } }]);
    const r = await run(["--kubeconfig", "other.yaml", "--context", "bank"]);
    expect(r.code, r.stderr).toBe(0);
    expect(parse(fs.readFileSync(path.join(s.home, "other.yaml"), "utf8"))["current-context"]).toBe("bank");
});

it("says so when the stack has no kubeconfig output, or the kube config is not YAML", async () => {
    const none = await run(["--stack", "dev"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('stack "dev" has no kubeconfig output; deploy it first: npx mara up --stack dev');

    deployed();
    const file = path.join(s.home, "broken");
    fs.writeFileSync(file, "clusters: [unclosed\n");
    const broken = await run(["--kubeconfig", file]);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${file} is not valid YAML or JSON`);
    expect(fs.readFileSync(file, "utf8")).toBe("clusters: [unclosed\n");
});
