import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { print } from "../cli-output.ts";

const USAGE = "<token or token id>";

export const tokenRevoke: CliCommand = {
  words: ["token", "revoke"],
  usage: USAGE,
  summary: "Revoke a bot or bearer token; running servers refuse it at once (on other hosts through REDIS_URL)",
  async run(args) {
    const [value, ...extra] = args.positionals;
    if (!value || extra.length > 0) throw new Error(`Usage: token revoke ${USAGE}`);
    const { revokeTokens, tokenIdOf } = await import("~/server/auth/tokens.service.ts");
    const id = /^\d{1,20}$/.test(value) ? value : tokenIdOf(value);
    if (!id) throw new Error("That is neither a token nor a token id.");
    const revoked = await withDatabase(async (db) => {
      if (!(await db.token.findUnique({ where: { id }, select: { id: true } }))) throw new Error(`Unknown token ${id}`);
      return revokeTokens({ db, actor: null }, [id]);
    });
    print(revoked ? `Revoked token ${id}.` : `Token ${id} was already revoked.`);
  },
};
