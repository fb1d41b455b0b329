/**
 * The policy pack: `pulumi preview --policy-pack <this directory>` (the source in a checkout, or
 * `dist/policy/pack` in the npm package). Loading this module starts the pack's server, so nothing else imports it.
 */
import { PolicyPack } from "@pulumi/policy";
import { packPolicies } from "../policies";

new PolicyPack("mara-guardrails", {
    description: "The platform's guardrails: workloads, Services, Ingresses, credentials, the clouds' encryption and API endpoints. docs/policy.md lists the rules.",
    policies: packPolicies(),
});
