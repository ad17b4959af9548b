import pino from 'pino'

export type Logger = pino.Logger

export function createLogger(level: pino.LevelWithSilent = 'info'): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['*.password', '*.token', '*.accessToken', '*.refreshToken', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  })
}
