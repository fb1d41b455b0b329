/**
 * The Argo CD add-on unit: its component (component.ts) with the shapes it writes (applications.ts, the Applications
 * and the `argocd-cm` settings; applicationSet.ts, a fleet's ApplicationSet; clusterSecret.ts, the cluster Secret;
 * repository.ts, the repository Secret), its defaults and chart pin (defaults.ts), its chart keys (keys.ts) and its
 * mapping onto its arguments (args.ts); its page is docs/components/argoCd.md. The GitOps delivery's keys and rules
 * stay in config/gitops.ts. This index is the library's view of the unit, the component alone: components never
 * read configuration.
 */
export * from "./component";
