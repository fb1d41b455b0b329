/**
 * MARA's own example stack file (config/pulumi/Pulumi.stackname.yaml.example) carries four defects.
 * This reproduces the lines concerned, as a user copying the example would have them, on top of our
 * MARA-format fixture, and checks that each is reported, not silently used or ignored.
 */
import * as fs from "fs";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { formatProblem, parseStackFile, validateConfig } from "../../config";
import { FIXTURES } from "../support/config";

const fixtureText = fs.readFileSync(path.join(FIXTURES, "Pulumi.mara-aws.yaml"), "utf8");
const asInMaraExample = fixtureText
    .replace("    - us-east-1a\n    - us-east-1b", "    - us-west-1a\n    - us-west-1b")
    .replace("prometheus:helm_repo_url: https://prometheus", "prometheus:helm_repo_url: https://https://prometheus")
    .replace("prometheus:statsd_chart_version: 0.6.2", "prometheus.statsd_chart_version: 0.6.2");

describe("MARA's example stack file", () => {
    const result = validateConfig(parseStackFile(asInMaraExample));

    it("is rejected for the zones of the wrong region and the doubled URL scheme, nothing else", () => {
        expect(result.problems.map((p) => `${p.key}: ${p.problem}`)).toEqual([
            "prometheus:helm_repo_url: repeats the scheme",
            'vpc:azs: lists "us-west-1a", which is in region us-west-1, not us-east-1',
            'vpc:azs: lists "us-west-1b", which is in region us-west-1, not us-east-1',
        ]);
        expect(result.config).toBeUndefined();
    });

    it("gets a warning for the key written with a dot instead of a colon", () => {
        expect(result.warnings).toContain(
            '"prometheus.statsd_chart_version" is ignored: it has a dot where a colon belongs, so Pulumi files it under the project as mara:prometheus.statsd_chart_version; write it as prometheus:statsd_chart_version.',
        );
    });

    it("passes once those two values are corrected (the fixture)", () => {
        const fixed = validateConfig(parseStackFile(fixtureText));
        expect(fixed.problems.map(formatProblem)).toEqual([]);
        expect(fixed.config?.infra).toMatchObject({ type: "aws", region: "us-east-1", profile: "myProfile" });
    });
});
