/** How `mara plan --policy` prints what the pack found, and reads the pack's configuration file. */
import * as fs from "fs";
import * as path from "path";
import { configProblems, PolicyConfig } from "../../policy/config";
import { RULES } from "../../policy/rules";
import { CliError, EXIT, line, Writer } from "../kernel/io";
import type { PolicyReport } from "./policyCheck";

/** Reads the pack's configuration (the JSON `pulumi preview --policy-pack-config` takes); a mistake is a usage error. */
export function readPolicyConfig(file: string | undefined, cwd: string): PolicyConfig {
    if (file === undefined) return {};
    const where = path.resolve(cwd, file);
    let parsed: unknown;
    try {
        parsed = JSON.parse(fs.readFileSync(where, "utf8"));
    } catch (e) {
        throw new CliError(`--policy-config ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : `not JSON (${(e as Error).message})`}`, EXIT.usage);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new CliError(`--policy-config ${file}: expected a JSON object of rule ids`, EXIT.usage);
    const problems = configProblems(parsed as PolicyConfig, RULES);
    if (problems.length > 0) throw new CliError(`--policy-config ${file}:\n${problems.map((p) => `  ${p}`).join("\n")}`, EXIT.usage);
    return parsed as PolicyConfig;
}

/** Prints the violations by level, and the rules a first preview could not judge. */
export function printPolicyReport(out: Writer, report: PolicyReport): void {
    const mandatory = report.violations.filter((v) => v.level === "mandatory");
    const advisory = report.violations.filter((v) => v.level === "advisory");
    line(out, `Policy pack mara-guardrails (${RULES.length} rules, docs/policy.md): ${mandatory.length} mandatory and ${advisory.length} advisory violation${advisory.length === 1 ? "" : "s"}`);
    for (const v of [...mandatory, ...advisory]) line(out, `  ${v.level === "mandatory" ? "error" : "warning"} [${v.rule}] ${v.resource ?? "(the stack)"}: ${v.message}`);
    if (report.notJudged.length > 0) {
        line(out, "  Not judged, because a value is known only once deployed (`pulumi preview --policy-pack` says the same):");
        for (const n of report.notJudged) line(out, `    [${n.rule}] ${n.resource}: ${n.path}`);
    }
}
