import { it } from "vitest";
import * as fs from "fs";
import { fixture } from "../support/config";
import { find, unwrapSecrets } from "../support/mocks";
import { runProgram } from "../support/program";
it("dump", async () => {
    const run = await runProgram(fixture("minimal-aws"));
    const inputs = unwrapSecrets(find(run.registrations, "pulumi-nodejs:dynamic:Resource", "drain-drain").inputs) as Record<string, unknown>;
    fs.writeFileSync("/tmp/w19/provider.js", inputs.__provider as string);
}, 120000);
