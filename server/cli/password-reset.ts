import { issueResetToken, resetLink } from '../services/password-reset';
import { required, userByEmail, type Command } from './options';

/** The operator's way to a reset link when the panel sends no mail (no SMTP_URL). */
export const PASSWORD_RESET_COMMANDS: Record<string, Command> = {
  'user:reset-link': {
    options: { email: { type: 'string' } },
    async run(opts, { db, clock, publicUrl }) {
      const user = await userByEmail(db, required(opts, 'email'));
      const token = await issueResetToken(db, user, clock.now());
      return { email: user.email, link: resetLink(publicUrl ?? 'http://localhost:8080', token, user.email), expires_in_minutes: 60 };
    },
  },
};
