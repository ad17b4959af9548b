/** One signed-in browser or app, as Settings lists it. */
export type SessionView = {
  id: string
  /** 'Chrome on Windows', from the user agent; 'Unknown device' when there is none. */
  device: string
  ipAddress: string | null
  createdAt: string
  lastUsedAt: string
  isCurrent: boolean
}

/** A short, readable name for a user agent: browser and operating system. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device'
  const browser =
    /Edg\//.test(userAgent) ? 'Edge'
    : /OPR\/|Opera/.test(userAgent) ? 'Opera'
    : /Firefox\//.test(userAgent) ? 'Firefox'
    : /Chrome\/|Chromium\/|CriOS\//.test(userAgent) ? 'Chrome'
    : /Safari\//.test(userAgent) ? 'Safari'
    : /curl|node|undici|python|okhttp/i.test(userAgent) ? 'API client'
    : 'Browser'
  const os =
    /iPhone|iPad|iPod/.test(userAgent) ? 'iOS'
    : /Android/.test(userAgent) ? 'Android'
    : /Windows/.test(userAgent) ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent) ? 'macOS'
    : /CrOS/.test(userAgent) ? 'ChromeOS'
    : /Linux/.test(userAgent) ? 'Linux'
    : null
  return os ? `${browser} on ${os}` : browser
}
