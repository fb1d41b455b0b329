/**
 * docs/cli.md's table of bounds says what the code does: every row's number is the constant the code uses, and every
 * bound the code has a constant for has its row.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { GIT_MAX_BYTES, GIT_TIMEOUT_MS } from "../../cli/ci/repository";
import { MAX_OUTPUTS_BYTES } from "../../cli/commands/verify";
import { OPEN_BOUND_MS } from "../../cli/commands/open";
import { LIST_MAX_BYTES, OBJECT_MAX_BYTES, REQUEST_TIMEOUT_MS } from "../../cli/doctor/kubeClient";
import { DOCTOR_BOUND_MS } from "../../cli/doctor/run";
import { MAX_KUBECONFIG_BYTES } from "../../cli/doctor/target";
import { DEFAULT_TIMEOUT as OUTDATED_TIMEOUT } from "../../cli/register/outdated";
import { EXEC_PLUGIN_MAX_BYTES, EXEC_PLUGIN_TIMEOUT_MS } from "../../cli/kube/execPlugin";
import { MAX_CREDENTIAL_FILE_BYTES } from "../../cli/net/tlsMaterial";
import { PORT_FORWARD_OPEN_MS } from "../../cli/open/forward";
import { DEFAULT_MAX_BYTES, MAX_REDIRECTS, RUN_BOUND_FACTOR } from "../../cli/outdated/http";
import { DOCKER_CHECK_TIMEOUT_MS } from "../../cli/operation/preflight";
import { PULUMI_QUERY_MAX_BYTES, PULUMI_QUERY_TIMEOUT_MS } from "../../host/pulumiLimits";
import { DEFAULT_TIMEOUT_MS, MAX_BODY_BYTES, MAX_TIMEOUT_MS } from "../../cli/verify/check";
import { bytesInWords } from "../../cli/net/boundedRequest";

const DOC = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "cli.md"), "utf8");
const s = (ms: number) => `${ms / 1000} s`;
const b = (n: number) => bytesInWords(n);

/** The rows of the table under "## Bounds": what (the second cell) → the bound (the third). */
function rows(): Map<string, string> {
    const section = DOC.slice(DOC.indexOf("## Bounds"), DOC.indexOf("\n## ", DOC.indexOf("## Bounds") + 3));
    const out = new Map<string, string>();
    for (const line of section.split("\n").filter((l) => l.startsWith("| `"))) {
        const cells = line.split("|").map((c) => c.trim());
        out.set(`${cells[1]} | ${cells[2]}`, cells[3]!);
    }
    return out;
}

const CLUSTER = "`doctor`, `open`, `up` (existing cluster)";
const PULUMI = "`up`, `preview`, `destroy`, `refresh`, `kubeconfig`, `init`, `render --from-stack`";

const EXPECTED: [string, string][] = [
    [`${CLUSTER} | each request to the API server`, s(REQUEST_TIMEOUT_MS)],
    [`${CLUSTER} | an answer of the API server: one object, \`/version\`, a review`, b(OBJECT_MAX_BYTES)],
    [`${CLUSTER} | an answer of the API server: a list`, b(LIST_MAX_BYTES)],
    [`${CLUSTER} | an exec credential plugin's run`, s(EXEC_PLUGIN_TIMEOUT_MS)],
    [`${CLUSTER} | what an exec credential plugin prints`, b(EXEC_PLUGIN_MAX_BYTES)],
    [`${CLUSTER} | a certificate, key or token file the kubeconfig names`, b(MAX_CREDENTIAL_FILE_BYTES)],
    ["`doctor`, `open` | the `--kubeconfig` file", b(MAX_KUBECONFIG_BYTES)],
    ["`doctor`, `up` (existing cluster) | the whole doctor run", s(DOCTOR_BOUND_MS)],
    ["`open` | finding the interface's pod, before it listens", s(OPEN_BOUND_MS)],
    ["`open` | opening each connection's port-forward", s(PORT_FORWARD_OPEN_MS)],
    ["`verify` | each request (`--timeout`, default)", s(DEFAULT_TIMEOUT_MS)],
    ["`verify` | `--timeout` at most", s(MAX_TIMEOUT_MS)],
    ["`verify` | an answer read", b(MAX_BODY_BYTES)],
    ["`verify` | the stack outputs read", b(MAX_OUTPUTS_BYTES)],
    ["`outdated` | each request (`--timeout`, default; 1 to 600)", `${OUTDATED_TIMEOUT} s`],
    ["`outdated` | the whole command, in times `--timeout`", String(RUN_BOUND_FACTOR)],
    ["`outdated` | an answer read", b(DEFAULT_MAX_BYTES)],
    ["`outdated` | redirects followed", String(MAX_REDIRECTS)],
    [`${PULUMI} | each Pulumi CLI query (\`version\`, stack selection, configuration, outputs, \`stack export\`, \`stack history\`, \`login\`)`, s(PULUMI_QUERY_TIMEOUT_MS)],
    [`${PULUMI} | what a Pulumi CLI query prints`, b(PULUMI_QUERY_MAX_BYTES)],
    ["`up` | `docker version`", s(DOCKER_CHECK_TIMEOUT_MS)],
    ["`init --ci` | `git symbolic-ref` (the repository's default branch)", s(GIT_TIMEOUT_MS)],
    ["`init --ci` | what `git symbolic-ref` prints", b(GIT_MAX_BYTES)],
];

describe("docs/cli.md's bounds", () => {
    it("every documented bound is the code's, and every bound of the code is documented", () => {
        const documented = rows();
        for (const [what, bound] of EXPECTED) expect(documented.get(what), what).toBe(bound);
        expect([...documented.keys()].sort()).toEqual(EXPECTED.map(([what]) => what).sort());
    });

    it("the per-request numbers the command pages quote are the same", () => {
        expect(DOC).toContain(`gives no complete answer within ${s(REQUEST_TIMEOUT_MS)}`);
        expect(DOC).toContain(`does not finish within ${s(EXEC_PLUGIN_TIMEOUT_MS)}`);
        expect(DOC).toContain(`the doctor's ${s(DOCTOR_BOUND_MS)} bound`);
        expect(DOC).toContain(`ends within ${RUN_BOUND_FACTOR} times \`--timeout\``);
        expect(DOC).toContain(`More than ${MAX_REDIRECTS} redirects in a row`);
        expect(DOC).toContain(`Answers are read up to ${b(MAX_BODY_BYTES)}; outputs up to ${b(MAX_OUTPUTS_BYTES)}`);
    });
});
