// Made-up weather: the same city always gets the same five days. Replace forecastFor with a real API call.

export interface Day {
  date: string
  sky: string
  high: number
  low: number
}

export interface Forecast {
  city: string
  days: Day[]
}

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']
const SKIES = ['Sunny', 'Partly cloudy', 'Cloudy', 'Showers', 'Thunderstorms', 'Windy', 'Fog']

// FNV-1a: a stable seed from the city name, so tests and screenshots do not change between runs.
function seedOf(text: string): number {
  let hash = 0x811c9dc5
  for (const ch of text) {
    hash ^= ch.codePointAt(0)!
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

// mulberry32: a tiny deterministic generator of numbers in [0, 1).
function generator(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The five-day forecast for `city` (Mon–Fri), temperatures in °C. */
export function forecastFor(city: string): Forecast {
  const name = city.trim()
  const random = generator(seedOf(name.toLowerCase()))
  let base = 8 + Math.floor(random() * 20)
  const days = DAYS.map((date) => {
    base += Math.floor(random() * 7) - 3
    const high = base + Math.floor(random() * 4)
    const low = high - 4 - Math.floor(random() * 6)
    return { date, sky: SKIES[Math.floor(random() * SKIES.length)]!, high, low }
  })
  return { city: name, days }
}

/** One line per day, for the model and for hosts that cannot show the view. */
export function summarize({ city, days }: Forecast): string {
  return `Forecast for ${city}: ${days.map((d) => `${d.date} ${d.sky.toLowerCase()}, ${d.high}°/${d.low}°C`).join('; ')}.`
}
