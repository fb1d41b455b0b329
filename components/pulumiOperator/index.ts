/**
 * The Pulumi Kubernetes Operator add-on unit: its component (component.ts) with the `Stack` it writes and the names
 * around it (stack.ts), its chart pin (defaults.ts), its keys (keys.ts), its section of the configuration and the
 * rules across its keys (settings.ts) and its mapping onto its arguments (args.ts); its page is
 * docs/components/pulumiOperator.md. The GitOps delivery's keys (the repository it checks out) stay in
 * config/gitops.ts. This index is the library's view of the unit, the component alone: components never read
 * configuration.
 */
export * from "./component";
