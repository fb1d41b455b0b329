/**
 * A stack file with 20,000 keys nothing reads (a generated file, a paste gone wrong) is reported in a screenful, not
 * 20,000 lines: each kind of finding is listed one by one up to ten, with its suggestion, and the rest counted in one
 * more that names a few. Lines are counted here; how long it takes (about a second, not minutes: the suggestion
 * search rules candidates out by length and letters before computing a distance) is `npm run bench`'s, as a multiple
 * of Node's own start (bench/lib/cliStart.ts), since a duration asserted here would fail on a busy machine.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterAll, describe, expect, it } from "vitest";
import { closest, editDistance } from "../../config/suggest";
import { KNOWN_KEYS } from "../../config";
import { runMara } from "./support/io";

const N = 20_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-many-keys-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function stackWith(lines: (i: number) => string): string {
    const file = path.join(dir, `Pulumi.many-${Math.random().toString(36).slice(2, 8)}.yaml`);
    const body = Array.from({ length: N }, (_, i) => `  ${lines(i)}`).join("\n");
    fs.writeFileSync(file, `config:\n  kubernetes:infra_type: AWS\n  aws:region: us-east-1\n${body}\n`);
    return file;
}

describe(`${N} keys nothing reads`, () => {
    it("in the project's namespace: ten problems with suggestions, then one that counts the rest", async () => {
        const file = stackWith((i) => `mara:eksMinSise${i}: "${i}"`);
        const r = await runMara(["validate", "-c", file]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`11 configuration problems in`);
        // The fix names the stack and the file, as every fix command does for a file given with -c.
        expect(r.stderr).toMatch(/1\. mara:eksMinSise0: is not a setting this program knows\. Allowed: the keys listed in docs\/configuration\.md and Pulumi\.yaml\. Fix: did you mean mara:eksMinSize\? Remove it with: pulumi config rm --stack \S+ --config-file \S+ mara:eksMinSise0\n/);
        expect(r.stderr).toContain(`11. ${N - 10} more keys of the mara namespace: are not settings this program knows either (mara:eksMinSise10, mara:eksMinSise11, mara:eksMinSise12, mara:eksMinSise13, mara:eksMinSise14, …)`);
        expect(r.stderr.split("\n").length).toBeLessThan(20);
    }, 120_000);

    it("in MARA's, the providers' and misspelled namespaces: warnings, each kind capped", async () => {
        const file = stackWith((i) => [`kic:image_nam${i}: x`, `aws:profil${i}: x`, `kic-hlem:fqdn${i}: x`, `certmgr:helm_tmeout${i}: x`][i % 4]!);
        const r = await runMara(["validate", "-c", file]);
        expect(r.code, r.stderr).toBe(0);
        const warnings = r.stderr.split("\n").filter((l) => l.startsWith("warning: "));
        expect(warnings.length).toBeLessThanOrEqual(4 * 11);
        expect(r.stderr).toContain(`warning: ${N / 2 - 10} more keys in MARA's namespaces are not settings this program reads and are ignored (`);
        expect(r.stderr).toContain(`warning: ${N / 4 - 10} more provider settings are not read and do not apply (`);
        expect(r.stderr).toContain(`warning: ${N / 4 - 10} more keys are ignored because nothing reads their namespace (`);
    }, 120_000);
});

describe("the suggestion search", () => {
    it("finds what the full search finds", () => {
        for (const typo of ["mara:eksMinSise", "eks:min_sise", "kic-helm:fqnd", "MARA:FQDN", "prometheus:adminpas", "sirius:acounts_pwd"]) {
            const full = KNOWN_KEYS.map((k) => [k, editDistance(typo.toLowerCase(), k.toLowerCase())] as const).sort((a, b) => a[1] - b[1])[0]!;
            expect(closest(typo, KNOWN_KEYS), typo).toBe(full[1] <= Math.max(2, Math.floor(typo.length / 3)) ? full[0] : undefined);
        }
        expect(editDistance("kitten", "sitting")).toBe(3);
        expect(editDistance("kitten", "sitting", 1)).toBe(2);
    });
});
