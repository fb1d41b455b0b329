/**
 * The credentials container's script, run by a real POSIX shell against stand-in `pg_isready` and
 * `psql`: it waits for the server that listens on TCP (the real one, not the one initialising the
 * volume), sends the password changes on psql's standard input only, quotes any password safely, is
 * ready only after applying them, and fails loudly when psql fails.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CREDENTIALS_SCRIPT } from "../../components/passwordRotation";

let dir: string;
beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "mara-credentials-"));
    const tool = (name: string, body: string) => fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    // Not ready twice (the server initialising the volume has no TCP port), then ready.
    tool("pg_isready", `n=$(cat "${dir}/ready" 2>/dev/null || echo 0); echo $((n + 1)) > "${dir}/ready"; printf '%s\\n' "$*" >> "${dir}/pg_isready.args"; [ "$n" -ge 2 ]`);
    tool("psql", `printf '%s\\n' "$@" > "${dir}/psql.args"; cat > "${dir}/psql.stdin"; exit \${PSQL_EXIT:-0}`);
    tool("sleep", "exit 0");
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const PASSWORD = `it's "new" $HOME \`id\` \\n`;
function run(env: Record<string, string>) {
    return spawnSync("sh", ["-c", CREDENTIALS_SCRIPT, "credentials", "--once"], {
        encoding: "utf8",
        env: { PATH: `${dir}:/usr/bin:/bin`, CREDENTIALS_MARKER: path.join(dir, "applied"), POSTGRES_USER: "admin", POSTGRES_DB: "postgresdb", ...env },
    });
}
const read = (f: string) => fs.readFileSync(path.join(dir, f), "utf8");

describe("the credentials script", () => {
    it("sets the database user's and the demo login's passwords through psql's standard input, quoted", () => {
        const r = run({ POSTGRES_PASSWORD: PASSWORD, USE_DEMO_DATA: "True", DEMO_LOGIN_USERNAME: "o'brien", DEMO_LOGIN_PASSWORD: "demo'pw" });
        expect(r.status, r.stderr).toBe(0);
        expect(read("pg_isready.args").trim().split("\n")).toEqual(["-q -h 127.0.0.1 -p 5432", "-q -h 127.0.0.1 -p 5432", "-q -h 127.0.0.1 -p 5432"]);
        expect(read("psql.args").trim().split("\n")).toEqual(["-v", "ON_ERROR_STOP=1", "-q", "-h", "/var/run/postgresql", "-U", "admin", "-d", "postgresdb"]);
        const sql = read("psql.stdin").split("\n");
        expect(sql[0]).toBe(`ALTER ROLE "admin" WITH PASSWORD 'it''s "new" $HOME \`id\` \\n';`);
        expect(sql[1]).toBe("CREATE EXTENSION IF NOT EXISTS pgcrypto;");
        expect(sql[2]).toContain("SELECT '10' || lpad((floor(random() * 100000000))::bigint::text, 8, '0'), 'o''brien', ''::bytea");
        expect(sql[2]).toContain("AND NOT EXISTS (SELECT 1 FROM users WHERE username = 'o''brien');");
        expect(sql[3]).toBe("UPDATE users SET passhash = convert_to(crypt('demo''pw', gen_salt('bf', 12)), 'UTF8') WHERE username = 'o''brien';");
        expect(fs.existsSync(path.join(dir, "applied"))).toBe(true);
        expect(r.stdout).toBe("credentials: the database has the current passwords\n");
        // No password in any argument or output.
        for (const text of [read("psql.args"), read("pg_isready.args"), r.stdout, r.stderr]) {
            expect(text).not.toContain("new");
            expect(text).not.toContain("demo'pw");
        }
    });

    it("sets only the user's password in the ledger database, which has no demo login", () => {
        const r = run({ POSTGRES_PASSWORD: "ledger-pw", USE_DEMO_DATA: "True" });
        expect(r.status, r.stderr).toBe(0);
        expect(read("psql.stdin")).toBe(`ALTER ROLE "admin" WITH PASSWORD 'ledger-pw';\n`);
    });

    it("fails, and stays unready, when psql fails", () => {
        const r = run({ POSTGRES_PASSWORD: "pw", PSQL_EXIT: "2" });
        expect(r.status).not.toBe(0);
        expect(fs.existsSync(path.join(dir, "applied"))).toBe(false);
    });
});
