package render
import ("context";"testing";"fmt";"os";"github.com/editaudit/editaudit/pixeldiff")
func TestZZDebug(t *testing.T){
 r, err := New(context.Background(), Config{Pool: PoolOptions{Workers:1}}); if err != nil { t.Fatal(err) }
 defer r.Close()
 a, err := r.RenderSigs(context.Background(), os.Getenv("ZZA"), nil); if err != nil { t.Fatal(err) }
 defer os.Remove(a.PDF)
 b, err := r.RenderSigs(context.Background(), os.Getenv("ZZB"), &a.Bands); if err != nil { t.Fatal(err) }
 defer os.Remove(b.PDF)
 d := pixeldiff.NewBandDetector()
 _ = d
 fmt.Println("bands", a.Bands, "H", a.Sigs[0].H)
 pairs := pixeldiff.Align(a.Sigs, b.Sigs, a.Bands)
 fmt.Println(pairs)
 fmt.Println(pixeldiff.DetectReflow(a.Sigs, b.Sigs, pairs, a.Bands))
 for i, s := range a.Sigs { top, bot := s.BandsOn(a.Bands); fmt.Println("A", i+1, s.Text.Len(), top, bot, s.Text.Rows[len(s.Text.Rows)-2:]) }
 for i, s := range b.Sigs { top, bot := s.BandsOn(a.Bands); fmt.Println("B", i+1, s.Text.Len(), top, bot) }
}
