//! Unit tests of [`super`]: Ruby and Lua blocks counted by their words.

use super::{EndLang, ends_unbalanced, read};
use crate::diagnose::doubt::test_edits::edited;

/// Whether `text` (in `lang`) reads sure and balanced.
fn balanced(lang: EndLang, text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let b = read(lang, &lines);
    !b.unsure && b.balanced()
}

const CART: &str = "# A cart.\nclass Cart < Base\n  attr_reader :items\n\n  def initialize(items = [])\n    @items = items\n  end\n\n  def total\n    return 0 if items.empty?\n    items.sum do |item|\n      item.price * item.count\n    end\n  end\n\n  def add(item)\n    unless item.valid?\n      raise ArgumentError, \"bad item: #{item.name}\"\n    end\n    @items << item\n  end\nend\n";

/// The tester's find (47, T-05): a method's `end` lost, and one too many,
/// are doubted, naming the line; the file before read balanced.
#[test]
fn a_ruby_methods_end_lost_or_doubled_is_doubted() {
    assert!(balanced(EndLang::Ruby, CART));
    let lost = edited(CART, "    end\n  end\n\n  def add", "    end\n\n  def add");
    let found = ends_unbalanced("cart.rb", CART, &lost).expect("doubted");
    assert_eq!((found.excess, found.of_old), (1, true));
    assert_eq!(
        found.describe(),
        "as written, one block of the file is left without its `end` (Ruby refuses the file: \
         syntax error, unexpected end-of-input) (srview reads Ruby's blocks outside strings and \
         comments; the file before closed each): the edit's old text closes a block its new \
         text does not close (line 14 `end`): send the new text with its closing `end`"
    );
    let extra = edited(
        CART,
        "    @items << item\n  end\n",
        "    @items << item\n  end\n  end\n",
    );
    let found = ends_unbalanced("cart.rb", CART, &extra).expect("doubted");
    assert_eq!((found.excess, found.of_old), (-1, false));
    assert!(
        found
            .fault()
            .starts_with("as written, the file has one `end` more than the blocks it opens"),
        "{}",
        found.fault()
    );
    // A new method with its `end`, a modifier `if` added: fine.
    let added = edited(
        CART,
        "  def add(item)\n",
        "  def count\n    items.size\n  end\n\n  def add(item)\n    log(item) if debug?\n",
    );
    assert_eq!(ends_unbalanced("cart.rb", CART, &added), None);
}

/// Modifiers open nothing; `x = if` and a `while`'s `do` are read as Ruby
/// reads them.
#[test]
fn ruby_modifiers_and_expressions() {
    for text in [
        "x = 1 if y\n",
        "return unless ok\n",
        "i += 1 while i < 10\n",
        "begin\n  step\nend while more?\n",
        "raise Error, \"no\" \\\n  if bad\n",
        "x = if a\n  1\nelse\n  2\nend\n",
        "while line = gets do\n  puts line\nend\n",
        "for i in 1..3 do\n  p i\nend\n",
        "until done? do\n  work\nend\n",
        "y = (a if b)\n",
        "items.each { |i| p i if i }\n",
        "def short = 42\n",
        "def ==(other) = id == other.id\n",
        "def name=(v)\n  @name = v\nend\n",
        "private def helper\n  1\nend\n",
        "class << self\n  def make; new; end\nend\n",
        "class A; end\n",
        "r = (1..10)\np r.end, r.begin\n",
        "h = { if: 1, end: 2, class: 'x' }\n",
        "send(:end); x = :if\n",
        "Foo::Bar.new.do_it\n",
        "case x\nwhen 1 then :a\nelse :b\nend\n",
        "v = x.nil? ? 1 : 2\n",
        "c = ?e\nd = ?\\n\n",
        "$stderr.puts $'\n",
    ] {
        assert!(balanced(EndLang::Ruby, text), "{text:?}");
    }
}

/// Strings, comments, heredocs, percent literals and regular expressions
/// holding block words are read past.
#[test]
fn ruby_text_holding_block_words_is_read_past() {
    for text in [
        "# def if end\nx = 1\n",
        "s = 'end if do'\n",
        "s = \"#{x.map do |y| y end.join} end\"\n",
        "t = %w[if end do]\nu = %Q{a {b} end}\n",
        "r = /\\bend\\b/i\nq = s =~ /do/\n",
        "m = text.split /end/\n",
        "sql = <<~SQL\n  select end\n  if do\nSQL\n",
        "a = foo(<<-A, <<B)\n  end\n  A\ndef\nB\n",
        "=begin\ndef x\n=end\n",
        "x = 1\n__END__\ndef\n",
        "x = a / b / c\ny = (p) / 2\n",
        "z = 10 % 3\nw = \"%d\" % [1]\n",
        "puts %(end)\n",
        "arr << Foo\nn = 1 << 2\n",
        // Found by the sweep over Ruby 3.1's own files: operators'
        // symbols, a quoted heredoc word, a body after `def`'s `)`, a
        // loop's condition over lines.
        "OPS = { :/ => 1, :<< => 2, :% => 3, :[]= => 4 }\n",
        "def /(x); memberwise(:/, x) end\n",
        "X.class_eval <<-'end;', __FILE__\n  end\nend;\n",
        "def _re!(str) /([^#{str}])/n end\n",
        "until v.empty? or\n      v.first > 1 do\n  v.shift\nend\n",
    ] {
        assert!(balanced(EndLang::Ruby, text), "{text:?}");
    }
    // An edit that drops an `end` in such a file is doubted.
    let text = "sql = <<~SQL\n  end\nSQL\ndef go\n  if x\n    y\n  end\nend\n";
    let lost = edited(text, "    y\n  end\n", "    y\n");
    assert!(ends_unbalanced("q.rb", text, &lost).is_some_and(|e| e.excess == 1));
}

/// A reading left inside a heredoc, a string or `=begin`, or a file that
/// read unbalanced before: nothing said.
#[test]
fn an_unsure_reading_says_nothing() {
    let good = "def a\n  1\nend\n";
    for before in [
        "x = <<~EOS\n  never closed\ndef a\n  1\nend\n",
        "s = \"open\ndef a\n  1\nend\n",
        "def a\n  1\nend\nend\n",
    ] {
        let lost = edited(before, "  1\nend\n", "  1\n");
        assert_eq!(ends_unbalanced("a.rb", before, &lost), None, "{before:?}");
    }
    // A string the edit opens: not this check's to say.
    let opened = edited(good, "  1\n", "  \"1\n");
    assert_eq!(ends_unbalanced("a.rb", good, &opened), None);
}

const LUA: &str = "local M = {}\n\n-- end of nothing\nfunction M.greet(name)\n  if name then\n    return \"hi \" .. name\n  end\n  return [[end]]\nend\n\nfor i = 1, 3 do\n  print(i)\nend\n\nlocal n = 0\nrepeat\n  n = n + 1\nuntil n > 3\n\nreturn M\n";

#[test]
fn a_lua_end_lost_or_doubled_is_doubted() {
    assert!(balanced(EndLang::Lua, LUA));
    let lost = edited(
        LUA,
        "    return \"hi \" .. name\n  end\n",
        "    return \"hi \" .. name\n",
    );
    let found = ends_unbalanced("m.lua", LUA, &lost).expect("doubted");
    assert_eq!((found.excess, found.of_old), (1, true));
    assert!(
        found
            .fault()
            .contains("(Lua refuses the file: 'end' expected)")
            && found.fault().contains("(line 7 `end`)"),
        "{}",
        found.fault()
    );
    let extra = edited(LUA, "  print(i)\nend\n", "  print(i)\nend\nend\n");
    assert!(ends_unbalanced("m.lua", LUA, &extra).is_some_and(|e| e.excess == -1));
    let crossed = edited(LUA, "until n > 3\n", "end\n");
    let found = ends_unbalanced("m.lua", LUA, &crossed).expect("doubted");
    assert_eq!(found.crossed, Some((18, "end")));
    // Harmless: a comment, a `while` loop, an `elseif`, a string with `end`.
    let fine = edited(
        LUA,
        "local n = 0\n",
        "local n = 0 -- do it\nwhile n < 1 do n = n + 1 end\nif a then b() elseif c then d() else e() end\nlocal s = 'end' .. \"do\" .. [==[\nfunction\n]==]\n",
    );
    assert_eq!(ends_unbalanced("m.lua", LUA, &fine), None);
    // A `#!` line, a long comment.
    let script = format!("#!/usr/bin/env lua\n--[[ if do\nfunction ]]\n{LUA}");
    assert!(balanced(EndLang::Lua, &script));
}

/// Only Ruby and Lua files are read.
#[test]
fn other_files_are_not_read() {
    let lost = edited(CART, "    end\n  end\n\n  def add", "    end\n\n  def add");
    for path in ["cart.py", "cart.ex", "cart.txt"] {
        assert_eq!(ends_unbalanced(path, CART, &lost), None, "{path}");
    }
    for path in ["Rakefile", "a.rake", "x.gemspec"] {
        assert!(ends_unbalanced(path, CART, &lost).is_some(), "{path}");
    }
}
