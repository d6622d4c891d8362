import { afterEach, describe, expect, it } from 'vitest'
import { rememberTypedValues, replayTypedValues } from './early-input'

afterEach(() => {
  document.body.innerHTML = ''
})

function prerendered() {
  document.body.innerHTML = `<form><input id="name" value=""><textarea id="note"></textarea>
    <input id="yes" type="checkbox"><input id="plain" value="kept"></form>`
  return {
    name: document.getElementById('name') as HTMLInputElement,
    note: document.getElementById('note') as HTMLTextAreaElement,
    yes: document.getElementById('yes') as HTMLInputElement,
  }
}

describe('values typed before hydration', () => {
  it('are noted, and given back with input events once hydration has put the state back', async () => {
    const { name, note, yes } = prerendered()
    name.value = 'Ada'
    note.value = 'Hello'
    yes.checked = true
    const typed = rememberTypedValues(document.body)
    expect(typed).toEqual([
      ['name', 'Ada'],
      ['note', 'Hello'],
      ['yes', true],
    ])

    const seen: string[] = []
    document.body.addEventListener('input', (event) => seen.push((event.target as HTMLElement).id))
    replayTypedValues(typed) // not hydrated yet: the values are still in the fields
    expect(name.value).toBe('Ada')

    name.value = '' // hydration resets the fields to React's state
    note.value = ''
    yes.checked = false
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(name.value).toBe('Ada')
    expect(note.value).toBe('Hello')
    expect(yes.checked).toBe(true)
    expect(seen).toEqual(['name', 'note', 'yes']) // a click on a checkbox fires input too
  })
})
