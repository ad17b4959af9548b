import type { FieldType } from '../../shared/contracts/extraction'
import type { Doc } from '../doc'
import type { CellClass, Shape, ShapeOptions } from '../shapes'

/** Where a value ends once its start is known. */
export type Extent =
  | { kind: 'shape' }
  | { kind: 'until'; stop: string[] }
  | { kind: 'cell' }
  /** Up to the next number on the line (`Paris 75002`). */
  | { kind: 'until-digit' }
  /** Up to the next value of a shape (`Team plan Apr 1, 2024 – May 1, 2024`). */
  | { kind: 'until-shape'; shape: Shape; skeleton: string }
  /**
   * `paragraphs`: the sample's value went on across blank lines (a message of several paragraphs).
   * `ends`: the opening words of the fixed lines below the one that ended it in the sample: an
   * email that leaves that line out (an optional question after the message) ends the value at them.
   */
  /** `bullets`: the sample's value was a bulleted list; the value is the bulleted lines that follow one another. */
  | { kind: 'lines'; stop: string[] | null; paragraphs?: boolean; ends?: string[][]; bullets?: boolean }
  /** Up to a separator that followed the value after a space (`Dublin (DUB)`, `Linen Shirt · M`). */
  | { kind: 'until-punct'; stop: string }
  /** The cell up to a tail of this pattern at its end (`Linen Napkins ×4` in `Linen Napkins ×4 × 2`). */
  | { kind: 'tail'; pattern: string }
  /** Groups of digits apart by spaces, up to the first word (`411 03` of `411 03 Göteborg`). */
  | { kind: 'digits' }

type AnchorFit = {
  /** The sample's label was separated from the value by a tab, line break or colon. */
  strongGap: boolean
  /** The sample's label started a line or cell. */
  atStart: boolean
  /** Tokens right after the value on its line in the sample ([] when the value ended its cell). */
  after: string[]
}

/** One line of a line item's unit: a table row by its cells, or a line of text by its pattern (null: any text). */
/** One line of a repeated unit; `optional`: some items leave it out (an item's `Condition: Used` line). */
/** `repeat`: 0 or more such lines (an item's option lines, `Color: Blue`), up to the unit's next line. */
/** `sparse`: a row under a header whose number cells after its name may each be empty (a dividend's quantity and price). */
export type UnitLine = ({ cells: Array<'empty' | 'num' | 'text'>; sparse?: true } | { pattern: string | null }) & { optional?: true; repeat?: true }

/** What kind of line a line is (rules/cards.ts): a row of cells, `Label: value`, a number alone, or text. */
export type LineClass = 'cells' | 'labelled' | 'number' | 'text'

export type Rule =
  /**
   * Line items: the field's value in each repeated unit (rules/rows.ts). `line` and `cell` say where
   * in the unit; `capture` is the pattern whose group 1 is the value on a line of text.
   */
  | {
      kind: 'rows'
      unit: UnitLine[]
      line: number
      cell: number
      capture?: string
      /**
       * The sample's cell held other amounts before the value (an old price struck through): an
       * item whose cell is only the value, or ends with it, is read by the value's shape at the end.
       */
      atEnd?: true
      /**
       * Learned from a sample with one item (rules/rows.ts singleItem): the field's other rules
       * follow it and read the value when the email has no such item, and it does not make the
       * field a line item for the wizard, which cannot tell from one item.
       */
      single?: true
      extent: Extent
      header: string[] | null
      landmark: string[] | null
      prefix?: boolean
      gap: number
      ordinal: number
      stops: string[]
    }
  /**
   * Line items as cards of several lines (rules/cards.ts): each card found by its `key` line, a
   * card at most `gap` content lines from the next; the value's line `offset` content lines from
   * the key, over lines of the kinds in `path`, of the form `line` (null on the key itself);
   * `capture`: the pattern whose group 1 is the value when it is part of its line. `marks`: the
   * card's other lines of a form of their own, by offset, which tell a card whose key line reads
   * otherwise after the last card read. `label`: the value line's own label (`Montant net`), by
   * which it is found in a card whose optional lines move it from `offset`.
   */
  | { kind: 'cards'; key: UnitLine; offset: number; path: LineClass[]; line: UnitLine | null; capture?: string; gap: number; ordinal: number; marks?: Array<{ offset: number; line: UnitLine }>; label?: string }
  /** A key known by its opening words, whose middle varies (`Tax … 8.875%:`); `cell`: the value is the next cell. */
  /** `count`: how many keyed lines gave a value in the sample. */
  | { kind: 'keyed'; key: string[]; cell: boolean; ordinal: number; extent: Extent; count?: number }
  /** The value in the cell under its key's cell (rules/stacked.ts). */
  | { kind: 'stacked'; key: string[]; ordinal: number; extent: Extent }
  /** `count`: how many places the label gave a value in the sample (the value was the `ordinal`-th). */
  /** `core`: how many of the anchor's last words are the label when a name before them changes. */
  /** `ownCell`: the sample's label filled its table cell and the value began the next one. */
  /** `sameLine`: the sample's value was on the label's line, so a label ending its line has no value. */
  /** `stemShared`: the sample had other labels of the same words but the last (`Payment date` beside `Payment reference`). */
  | ({ kind: 'label'; anchor: string[]; ordinal: number; skip: string; extent: Extent; count?: number; core?: number; ownCell?: true; sameLine?: true; stemShared?: true } & AnchorFit)
  /** `token`: the value is the one token before the words (an address in parentheses mid-sentence), read by its shape. */
  | { kind: 'suffix'; anchor: string[]; ordinal: number; strongGap: boolean; lineWords: string[]; token?: true }
  | { kind: 'column'; header: string[]; column: number; signature: CellClass[]; extent: Extent }
  /** `counted`: the landmark is a heading that counts the lines under it (`Resources (2):`); as many are read. */
  /** `details`: a counted list's lines of this kind (lineKind) are details under some items, not items. */
  | { kind: 'list'; landmark: string[]; prefix?: boolean; pattern: string; counted?: true; details?: string }
  /** A whole-line pattern (`Requester: … <(value)>`), for values inside a line with no label right before them. */
  | { kind: 'pattern'; pattern: string; ordinal: number; count?: number }
  /** `prefix`: the landmark line starts with these words and goes on with variable text (`Delivered to: …`). */
  /**
   * `block`: the kinds of the lines of the value's block, the `blocks`-th (0 when absent) under the
   * landmark; `offset` is then the value's line in that block (1-based), found by aligning the blocks.
   * Without `block` (templates learned before), `offset` counts lines below the landmark.
   */
  /** `asks`: the landmark is the value's own label or question (`Notice period:`, `What is your notice period?`). */
  /** `offset` -1: the value's line is right above the landmark, which the email shows once (a receipt's id and date over the items' header). */
  /** `core`: a `prefix` sentence that opens with a name is also found by its last `core` words, anywhere in a line. */
  | { kind: 'landmark'; landmark: string[]; prefix?: boolean; core?: number; ordinal: number; offset: number; cell: number; extent: Extent; lineWords: string[]; skipLead: boolean; block?: string[]; addressKinds?: true; blocks?: number; capture?: string; asks?: true }
  | { kind: 'position'; line: number; cell: number; extent: Extent; lineWords: string[]; skipLead: boolean }

export type View = 'html' | 'text' | 'subject'

/** A value's place in its body: the index of its non-empty line and its cell (template/place.ts). */
export type Place = { line: number; cell: number }

export type FieldTemplate = {
  name: string
  type?: FieldType
  sampleValue: string
  shape: Shape
  shapeOptions: ShapeOptions
  /** Learned from the sample's numeric dates: 01/02 means 1 February. */
  dayFirst?: boolean
  rules: Partial<Record<View, Rule[]>>
  /** Where the sample's value was, when it filled its cell or line: read there in an email whose wording differs. */
  place?: Partial<Record<'html' | 'text', Place>>
}

export type Template = {
  version: 3
  fields: FieldTemplate[]
  /** The sample's lines of fixed text: a rule without a label never returns one of them as a value. */
  fixed: string[]
  /** The kinds of the sample's non-empty lines, per body (template/place.ts). */
  layout?: Partial<Record<'html' | 'text', string[]>>
}

export type Docs = Partial<Record<View, Doc>>

/** `items`: a line-item field's value in each item, '' where an item has none. */
/** `cut`: why the items read may not be all of them (they end at a row that reads like another item). */
export type FieldMatch = { value: string; confidence: number; rule: string; items?: string[]; cut?: string }

/**
 * One kind of rule, as the registry (rules/registry.ts) knows it: applying a rule gives the value and
 * how much to take off the kind's base confidence for a weaker fit.
 */
export type RuleHandler<K extends Rule['kind']> = HandlerOf<Extract<Rule, { kind: K }>>

/** The handler of one variant of Rule; `HandlerOf<Rule>` is what `applyRule` dispatches to. */
export type HandlerOf<R extends Rule> = {
  baseConfidence: number
  apply(doc: Doc, rule: R, field: FieldTemplate): { value: string; penalty: number; items?: string[]; cut?: string } | null
  describe(rule: R): string
}
