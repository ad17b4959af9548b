// @vitest-environment jsdom
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Field, SwitchField } from './field'
import { Input } from './input'

function render(element: ReactNode) {
  document.body.innerHTML = renderToStaticMarkup(element)
}

/** The text a screen reader reads after the control's name: its aria-describedby targets, in order. */
function description(control: Element) {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? []
  return ids.map((id) => document.getElementById(id)?.textContent ?? `(missing #${id})`)
}

function theInput() {
  return document.querySelector('input')!
}

/** The texts of the labels the browser associates with a control. */
function labelsOf(control: HTMLInputElement | HTMLButtonElement) {
  return [...(control.labels ?? [])].map((label) => label.textContent)
}

describe('Field', () => {
  it('names the control with its label and describes it with its hint', () => {
    render(
      <Field label="Email" hint="We never share it.">
        {(control) => <Input {...control} type="email" />}
      </Field>,
    )
    const input = theInput()
    expect(labelsOf(input)).toEqual(['Email'])
    expect(description(input)).toEqual(['We never share it.'])
    expect(input.hasAttribute('aria-invalid')).toBe(false)
    expect(document.querySelector('[role="alert"]')).toBeNull()
  })

  it('marks the control invalid and describes it with the message, announced, then the hint', () => {
    render(
      <Field label="Email" hint="We never share it." error="Please enter a valid email address">
        {(control) => <Input {...control} type="email" />}
      </Field>,
    )
    const input = theInput()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(description(input)).toEqual(['Please enter a valid email address', 'We never share it.'])
    expect(document.querySelector('[role="alert"]')?.textContent).toBe('Please enter a valid email address')
  })

  it('has no description without a hint or an error', () => {
    render(<Field label="Key name">{(control) => <Input {...control} />}</Field>)
    expect(theInput().hasAttribute('aria-describedby')).toBe(false)
  })

  it('keeps an id it is given, and the error follows it', () => {
    render(
      <Field id="spreadsheet" label="Spreadsheet URL or ID" error="Spreadsheet not found">
        {(control) => <Input {...control} />}
      </Field>,
    )
    expect(theInput().id).toBe('spreadsheet')
    expect(document.getElementById('spreadsheet-error')?.textContent).toBe('Spreadsheet not found')
  })

  it('gives two fields on one page different ids', () => {
    render(
      <>
        <Field label="Password">{(control) => <Input {...control} />}</Field>
        <Field label="Confirm password">{(control) => <Input {...control} />}</Field>
      </>,
    )
    const inputs = [...document.querySelectorAll('input')]
    expect(inputs.map(labelsOf)).toEqual([['Password'], ['Confirm password']])
  })
})

describe('SwitchField', () => {
  it('names the switch with its label and describes it with its hint', () => {
    render(<SwitchField label="Parse Existing Emails" hint="Also process emails already in your mailbox." checked={false} onCheckedChange={() => {}} />)
    const toggle = document.querySelector('[role="switch"]') as HTMLButtonElement
    expect(labelsOf(toggle)).toEqual(['Parse Existing Emails'])
    expect(description(toggle)).toEqual(['Also process emails already in your mailbox.'])
  })
})
