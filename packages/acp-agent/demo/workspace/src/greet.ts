// Builds greetings for the command line.

export interface GreetOptions {
  excited?: boolean
}

export function greet(name: string, options: GreetOptions = {}): string {
  const mark = options.excited ? '!' : '.'
  return `Helo, ${name}${mark}`
}

export function greetAll(names: string[]): string[] {
  return names.map((name) => greet(name))
}
